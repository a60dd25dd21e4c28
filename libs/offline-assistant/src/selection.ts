// A request about an element picked in the preview ("change this to Larder" with <h1> “Pantry”
// selected): "this" is read as the element's text, and a text change is kept to that element.
import { splitSelectedElement, type SelectedElement } from '@kiln/domain';
import type { EditIntent } from './edit-intent.js';

/** "this", "this heading", "the selected text", "that button": words that point at the pick. "it" does not (it is the app). */
const POINTING = /\b(?:the\s+selected\s+(?:element|text|item|heading|headline|title|button|label|link|part|line|words?)|(?:this|that)(?:\s+(?:element|text|item|heading|headline|title|button|label|link|part|line|words?))?)\b/i;

export interface SelectionRequest {
  /** The person's words, with the first pointing phrase replaced by the quoted text of the pick. */
  readonly prompt: string;
  readonly element: SelectedElement | null;
}

/** The request as the edit parser should read it. */
export function pointAtSelection(message: string): SelectionRequest {
  const { words, element } = splitSelectedElement(message);
  if (element === null || element.text === '' || !POINTING.test(words)) return { prompt: words, element };
  return { prompt: words.replace(POINTING, `“${element.text}”`), element };
}

/** A text change of exactly the picked text becomes a change of that element only. */
export function keepToSelection(intents: readonly EditIntent[], element: SelectedElement | null): EditIntent[] {
  if (element === null || element.text === '') return [...intents];
  return intents.map((intent) =>
    intent.type === 'replace-text' && intent.from === element.text ? { type: 'replace-selected', tag: element.tag, from: intent.from, to: intent.to } : intent,
  );
}

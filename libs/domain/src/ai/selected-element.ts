// An element the person picked in the live preview (SPEC §3 builder state: selected element),
// and how it travels with a chat message: as a last line every assistant can read
// ("[Selected element: <h1> “Pantry” · header > h1]"), so the turn, its history and a reload
// all keep it without a second field.

/** What the builder knows of a picked element. Every field comes from the previewed app: untrusted. */
export interface SelectedElement {
  /** Lower-case tag name, e.g. `h1`, `button`, `my-widget`. */
  readonly tag: string;
  /** Its visible text, whitespace collapsed; '' for an element without text (an image). */
  readonly text: string;
  /** A short CSS path to it (`header > nav > a:nth-of-type(2)`), '' when unknown. */
  readonly selector: string;
}

export const SELECTED_ELEMENT_MAX_TEXT = 120;
export const SELECTED_ELEMENT_MAX_SELECTOR = 160;
/** The longest line appendSelectedElement adds to a message. */
export const SELECTED_ELEMENT_MAX_LINE = 40 + 32 + SELECTED_ELEMENT_MAX_TEXT + SELECTED_ELEMENT_MAX_SELECTOR;

const TAG = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const LINE = /\n\n\[Selected element: <([a-z][a-z0-9-]{0,31})>(?: “([^”\n\]]*)”)?(?: · ([^\n\]]*))?\]\s*$/;

/**
 * The picked element of a preview message, cleaned to what a chat line may hold, or null when the
 * data is not one (wrong types, a tag that is not a tag). Text and path are cut, never refused.
 */
export function selectedElementOf(data: unknown): SelectedElement | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  if (typeof d['tag'] !== 'string' || typeof d['text'] !== 'string' || typeof d['selector'] !== 'string') return null;
  const tag = d['tag'].toLowerCase();
  if (tag.length > 32 || !TAG.test(tag)) return null;
  return { tag, text: cleanText(d['text']), selector: cleanSelector(d['selector']) };
}

/** The message with the element's line after it; the message alone when nothing is selected. */
export function appendSelectedElement(message: string, element: SelectedElement | null): string {
  if (element === null) return message;
  const text = cleanText(element.text);
  const selector = cleanSelector(element.selector);
  return `${message.trimEnd()}\n\n[Selected element: <${element.tag}>${text ? ` “${text}”` : ''}${selector ? ` · ${selector}` : ''}]`;
}

/** A message split into the person's words and the element it was about (null: none). */
export function splitSelectedElement(message: string): { readonly words: string; readonly element: SelectedElement | null } {
  const m = LINE.exec(message);
  if (!m) return { words: message, element: null };
  return { words: message.slice(0, m.index).trimEnd(), element: { tag: m[1] as string, text: m[2] ?? '', selector: m[3] ?? '' } };
}

/** One line of plain text: no line breaks, none of the line's own delimiters, cut with '…'. */
function cleanText(text: string): string {
  const flat = text.replace(/[“”\]\u0000-\u001f\u007f\u2028\u2029]/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > SELECTED_ELEMENT_MAX_TEXT ? `${flat.slice(0, SELECTED_ELEMENT_MAX_TEXT - 1).trimEnd()}…` : flat;
}

/** A CSS path of plain selector characters only; anything else makes it unknown (''). */
function cleanSelector(selector: string): string {
  const flat = selector.replace(/\s+/g, ' ').trim();
  if (!/^[\w\s>#.:()\-+~]*$/.test(flat)) return '';
  return flat.length > SELECTED_ELEMENT_MAX_SELECTOR ? flat.slice(0, SELECTED_ELEMENT_MAX_SELECTOR) : flat;
}

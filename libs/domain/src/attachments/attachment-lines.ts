// How attachments travel with a chat message: one line each after the person's words
// ("[Attached image: /attachments/logo-1a2b3c4d.png (image/png) “logo.png”]"), before a selected
// element's line (ai/selected-element.ts). The turn, its history, a replay and a reload all keep
// them, and every assistant can read them: the line names the path the app can use.
import { appendSelectedElement, splitSelectedElement } from '../ai/selected-element.js';
import { attachmentPublicPath, isImageType, type Attachment } from './attachment.entity.js';

/** What a message says of one attached file. */
export interface AttachmentRef {
  /** `/attachments/<fileName>`: where the app reaches it. */
  readonly path: string;
  readonly fileName: string;
  readonly contentType: string;
  /** The person's name for it. */
  readonly name: string;
}

const LINE = /^\[Attached (?:image|file): \/attachments\/([a-z0-9][a-z0-9-]*\.[a-z0-9]+) \(([a-z]+\/[a-z0-9.+-]+)\)(?: “([^”\n]*)”)?\]$/;

export const attachmentRefOf = (a: Pick<Attachment, 'fileName' | 'contentType' | 'name'>): AttachmentRef => ({
  path: attachmentPublicPath(a.fileName),
  fileName: a.fileName,
  contentType: a.contentType,
  name: a.name,
});

export function attachmentLine(ref: AttachmentRef): string {
  const name = ref.name.replace(/[“”\]\n\r]/g, '');
  return `[Attached ${isImageType(ref.contentType) ? 'image' : 'file'}: ${attachmentPublicPath(ref.fileName)} (${ref.contentType})${name ? ` “${name}”` : ''}]`;
}

/** The message with one line per attachment after the words (and before a selected element's line). */
export function appendAttachments(message: string, refs: readonly AttachmentRef[]): string {
  if (refs.length === 0) return message;
  const { words, element } = splitSelectedElement(message);
  return appendSelectedElement(`${words.trimEnd()}\n\n${refs.map(attachmentLine).join('\n')}`, element);
}

/** A message (a selected element's line already taken off) split into the words and the attachments. */
export function splitAttachments(message: string): { readonly words: string; readonly attachments: readonly AttachmentRef[] } {
  const lines = message.trimEnd().split('\n');
  const refs: AttachmentRef[] = [];
  while (lines.length > 0) {
    const m = LINE.exec(lines[lines.length - 1] as string);
    if (!m) break;
    lines.pop();
    const fileName = m[1] as string;
    refs.unshift({ path: attachmentPublicPath(fileName), fileName, contentType: m[2] as string, name: m[3] ?? '' });
  }
  if (refs.length === 0) return { words: message, attachments: [] };
  return { words: lines.join('\n').trimEnd(), attachments: refs };
}

/** The attachments a whole message names (with or without a selected element's line). */
export const attachmentsOf = (message: string): readonly AttachmentRef[] => splitAttachments(splitSelectedElement(message).words).attachments;

import type { AttachedFile } from '@kiln/domain';
import type { ImagePart, TextPart, UserContent } from 'ai';

/** The image types models take as image inputs (an SVG goes as its text instead). */
const IMAGE_INPUT_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** Text-like attachments go along as text, at most this many characters each. */
export const ATTACHED_TEXT_MAX_CHARS = 20_000;
const TEXT_TYPES = new Set(['image/svg+xml', 'text/plain', 'text/markdown', 'text/csv']);

/**
 * The user message of a plan or a task: its text alone, or — with attachments (issue 18 item 3) —
 * the text, a line saying where each file is in the project and how the app reaches it, each
 * image as an image input and each text-like file's text.
 */
export function userContent(text: string, attachments: readonly AttachedFile[] | undefined): UserContent {
  if (attachments === undefined || attachments.length === 0) return text;
  const where = attachments.map((a) => `- “${a.name}” (${a.contentType}): the file public${a.path}, which the app reaches as ${a.path}`).join('\n');
  const parts: (TextPart | ImagePart)[] = [{ type: 'text', text: `${text}\n\nThe person attached these files; they are already in the project:\n${where}` }];
  for (const a of attachments) {
    if (IMAGE_INPUT_TYPES.has(a.contentType)) parts.push({ type: 'image', image: a.bytes, mediaType: a.contentType });
    else if (TEXT_TYPES.has(a.contentType)) {
      const body = Buffer.from(a.bytes).toString('utf8');
      const cut = body.length > ATTACHED_TEXT_MAX_CHARS ? `${body.slice(0, ATTACHED_TEXT_MAX_CHARS)}\n[… cut]` : body;
      parts.push({ type: 'text', text: `Contents of ${a.path}:\n<<<\n${cut}\n>>>` });
    }
  }
  return parts;
}

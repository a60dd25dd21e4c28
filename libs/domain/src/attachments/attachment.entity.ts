// A file attached to a prompt in the builder (issue 18 item 3): an image or a short document the
// assistant may use. Its bytes live in Kiln's ObjectStore under the project; the app sees it as
// public/attachments/<fileName> in its sandbox.
import { objectKey } from '../storage/object-key.js';
import { err, ok, type Result } from '../shared/result.js';
import { attachmentInvalid, attachmentTooLarge, attachmentTypeRefused, type AttachmentInvalid, type AttachmentTooLarge, type AttachmentTypeRefused } from './attachment.errors.js';

/** 10 MiB per file. */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

/** The types the builder takes, with the extension each is saved under. */
export const ATTACHMENT_TYPES: Readonly<Record<string, string>> = Object.freeze({
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/csv': 'csv',
  'application/pdf': 'pdf',
});

export interface Attachment {
  readonly id: string;
  readonly projectId: string;
  readonly userId: string;
  /** The person's name for it, cleaned (shown in the chat). */
  readonly name: string;
  /** Its name in the app: `public/attachments/<fileName>`, unique in the project. */
  readonly fileName: string;
  readonly contentType: string;
  readonly size: number;
  readonly createdAt: Date;
}

export interface NewAttachmentInput {
  readonly projectId: string;
  readonly userId: string;
  /** The name the browser gave (untrusted). */
  readonly name: string;
  /** The declared type, parameters allowed (`text/plain; charset=utf-8`). */
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

export const isImageType = (contentType: string): boolean => contentType.startsWith('image/');

/** Where the app reaches it: `/attachments/<fileName>`. */
export const attachmentPublicPath = (fileName: string): string => `/attachments/${fileName}`;

/** Where the sandbox keeps it: `public/attachments/<fileName>`. */
export const attachmentSandboxPath = (fileName: string): string => `public/attachments/${fileName}`;

/** Its bytes in the ObjectStore: `attachments/<project>/<id>` (both lower-cased: keys are). */
export const attachmentObjectKey = (projectId: string, id: string): string => objectKey('attachments', projectId.toLowerCase(), id.toLowerCase());

/** The prefix under which a project's attachments' bytes are kept (deleted with the project). */
export const attachmentsPrefix = (projectId: string): string => objectKey('attachments', projectId.toLowerCase());

/** The media type without parameters, lower-cased; null when it is not one the builder takes. */
export function attachmentType(declared: string): string | null {
  const type = (declared.split(';')[0] ?? '').trim().toLowerCase();
  return Object.hasOwn(ATTACHMENT_TYPES, type) ? type : null;
}

/**
 * A safe display name: the last path segment, control and markup characters gone, at most 100
 * characters. Null when nothing is left.
 */
export function cleanAttachmentName(raw: string): string | null {
  const last = raw.split(/[\\/]/).pop() ?? '';
  const clean = last
    .normalize('NFKC')
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069<>"'`:*?|\]\[“”]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  if (clean === '') return null;
  return clean.length > 100 ? clean.slice(0, 100) : clean;
}

/**
 * The file's name in the app: lower-case ASCII letters, digits and dashes, cut to 40, then a short
 * part of the id (so two "logo.png" never meet) and the type's own extension: `logo-1a2b3c4d.png`.
 */
export function attachmentFileName(name: string, id: string, contentType: string): string {
  const dot = name.lastIndexOf('.');
  const base = (dot > 0 ? name.slice(0, dot) : name)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  const tag = id.toLowerCase().replace(/[^a-z0-9]/g, '').slice(-8);
  const ext = ATTACHMENT_TYPES[contentType] ?? 'bin';
  return `${base || 'file'}-${tag}.${ext}`;
}

/** A new attachment, when its size, type and bytes agree. */
export function createAttachment(
  input: NewAttachmentInput,
  context: { readonly id: string; readonly now: Date },
): Result<Attachment, AttachmentTooLarge | AttachmentTypeRefused | AttachmentInvalid> {
  if (input.bytes.length > ATTACHMENT_MAX_BYTES) return err(attachmentTooLarge(ATTACHMENT_MAX_BYTES));
  const contentType = attachmentType(input.contentType);
  if (contentType === null) return err(attachmentTypeRefused('Only images (PNG, JPEG, GIF, WebP, SVG), text, Markdown, CSV and PDF files can be attached.'));
  if (input.bytes.length === 0) return err(attachmentInvalid('The file is empty.'));
  const name = cleanAttachmentName(input.name);
  if (name === null) return err(attachmentInvalid('The file needs a name.'));
  if (!bytesMatchType(input.bytes, contentType)) return err(attachmentTypeRefused(`The file is not a ${ATTACHMENT_TYPES[contentType]?.toUpperCase()} file.`));
  return ok(
    Object.freeze({
      id: context.id,
      projectId: input.projectId,
      userId: input.userId,
      name,
      fileName: attachmentFileName(name, context.id, contentType),
      contentType,
      size: input.bytes.length,
      createdAt: context.now,
    }),
  );
}

/** The bytes look like the declared type: magic numbers for binary types, text for the others. */
export function bytesMatchType(bytes: Uint8Array, contentType: string): boolean {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  const ascii = (from: number, text: string) => [...text].every((c, i) => bytes[from + i] === c.charCodeAt(0));
  switch (contentType) {
    case 'image/png':
      return starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
    case 'image/jpeg':
      return starts(0xff, 0xd8, 0xff);
    case 'image/gif':
      return ascii(0, 'GIF87a') || ascii(0, 'GIF89a');
    case 'image/webp':
      return ascii(0, 'RIFF') && ascii(8, 'WEBP');
    case 'application/pdf':
      return ascii(0, '%PDF-');
    case 'image/svg+xml':
      return isText(bytes) && /<svg[\s>]/i.test(headText(bytes, 4096));
    default:
      return isText(bytes);
  }
}

/** Valid UTF-8 without NUL. */
function isText(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i] as number;
    if (b === 0) return false;
    const extra = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (extra < 0) return false;
    for (let k = 1; k <= extra; k += 1) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return false;
    i += extra + 1;
  }
  return true;
}

function headText(bytes: Uint8Array, max: number): string {
  let s = '';
  for (let i = 0; i < Math.min(bytes.length, max); i += 1) s += String.fromCharCode(bytes[i] as number);
  return s;
}

import type { DomainError } from '../shared/domain-error.js';

/** More than ATTACHMENT_MAX_BYTES (HTTP 413). */
export type AttachmentTooLarge = DomainError<'ATTACHMENTS.TOO_LARGE'> & { readonly maxBytes: number };
/** A type the builder does not take, or bytes that are not what the type says (HTTP 415). */
export type AttachmentTypeRefused = DomainError<'ATTACHMENTS.UNSUPPORTED_TYPE'>;
/** No bytes, or no usable name (HTTP 400). */
export type AttachmentInvalid = DomainError<'ATTACHMENTS.INVALID'>;
/** Not an attachment of this project (also another user's): HTTP 404. */
export type AttachmentNotFound = DomainError<'ATTACHMENTS.NOT_FOUND'>;
/** The object store cannot be reached (HTTP 503): nothing was recorded. */
export type AttachmentStoreUnavailable = DomainError<'ATTACHMENTS.STORE_UNAVAILABLE'>;

export const attachmentTooLarge = (maxBytes: number): AttachmentTooLarge => ({
  code: 'ATTACHMENTS.TOO_LARGE',
  maxBytes,
  message: `A file may be at most ${Math.round(maxBytes / (1024 * 1024))} MB.`,
});

export const attachmentTypeRefused = (detail: string): AttachmentTypeRefused => ({ code: 'ATTACHMENTS.UNSUPPORTED_TYPE', message: detail });

export const attachmentInvalid = (detail: string): AttachmentInvalid => ({ code: 'ATTACHMENTS.INVALID', message: detail });

export const attachmentNotFound = (id: string): AttachmentNotFound => ({ code: 'ATTACHMENTS.NOT_FOUND', message: `Attachment ${id.slice(0, 64)} not found` });

export const attachmentStoreUnavailable = (): AttachmentStoreUnavailable => ({
  code: 'ATTACHMENTS.STORE_UNAVAILABLE',
  message: 'Files cannot be stored right now. Please try again in a moment.',
});

// SPEC §3 project store "pending files" (issue 18 item 3): files dropped, pasted or picked in the
// composer, kept per project until the message that carries them is sent. Each is checked here
// (type, size) and uploaded at once, so sending only names ids; failures are said in words.
import { ATTACHMENT_MAX_BYTES, MAX_ATTACHMENTS_PER_MESSAGE, type AttachmentRef, attachmentType } from '@kiln/domain';
import { inject, injectable, optional } from 'inversify';
import { makeAutoObservable, observable, runInAction } from 'mobx';
import type { AttachmentDto, AttachmentsApi } from '../../../api/attachments.api';
import { ApiError, TYPES } from '../../../app/ports';
import { type Ids, UI_TYPES } from '../../../app/ui-ports';

export interface PendingFile {
  /** Local id (the chip's key, for remove). */
  readonly id: string;
  readonly name: string;
  /** The media type the file goes as ('' when the browser does not know it and its name does not say). */
  readonly type: string;
  readonly size: number;
  /** A local thumbnail for an image, null otherwise. */
  readonly previewUrl: string | null;
  state: 'uploading' | 'ready' | 'failed';
  /** Why it could not be attached (too big, wrong type, …). */
  error: string | null;
  attachment: AttachmentDto | null;
}

/** An uploaded file as a message carries it. */
export interface SentAttachment extends AttachmentRef {
  readonly id: string;
}

/** Thumbnails of images before they are sent (the browser's object URLs). */
export interface FilePreviews {
  create(file: Blob): string | null;
  revoke(url: string): void;
}

export const FILE_PREVIEWS = Symbol.for('FilePreviews');

const browserPreviews: FilePreviews = {
  create: (file) => (typeof URL !== 'undefined' && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null),
  revoke: (url) => {
    if (typeof URL !== 'undefined' && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(url);
  },
};

export const ACCEPTED_FILES = 'image/png,image/jpeg,image/gif,image/webp,image/svg+xml,text/plain,text/markdown,text/csv,application/pdf,.md,.csv,.txt,.svg';
export const TYPES_IN_WORDS = 'images (PNG, JPEG, GIF, WebP, SVG), text, Markdown, CSV and PDF files';
export const tooBig = (name: string) => `“${name}” is too big: a file may be at most ${ATTACHMENT_MAX_BYTES / (1024 * 1024)} MB.`;
export const wrongType = (name: string) => `“${name}” can’t be attached: only ${TYPES_IN_WORDS} can.`;
export const TOO_MANY = `A message can carry at most ${MAX_ATTACHMENTS_PER_MESSAGE} files.`;

const BY_EXTENSION: Readonly<Record<string, string>> = { md: 'text/markdown', markdown: 'text/markdown', csv: 'text/csv', txt: 'text/plain', svg: 'image/svg+xml', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', pdf: 'application/pdf' };

/** The type a file goes as: the browser's, or its name's when the browser does not know. */
export function typeOf(file: { readonly type: string; readonly name: string }): string {
  if (file.type !== '') return file.type;
  const ext = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  return BY_EXTENSION[ext] ?? '';
}

@injectable()
export class PendingFilesStore {
  private readonly byProject = observable.map<string, PendingFile[]>();

  constructor(
    @inject(TYPES.AttachmentsApi) private readonly api: AttachmentsApi,
    @inject(UI_TYPES.Ids) private readonly ids: Ids,
    @inject(FILE_PREVIEWS) @optional() private readonly previews: FilePreviews = browserPreviews,
  ) {
    makeAutoObservable<PendingFilesStore, 'api' | 'ids' | 'previews'>(this, { api: false, ids: false, previews: false }, { autoBind: true });
  }

  /** The project's pending files, in the order they were added. */
  filesOf(projectId: string): readonly PendingFile[] {
    return this.byProject.get(projectId) ?? [];
  }

  /** No file is still uploading: a message may be sent. */
  readyToSend(projectId: string): boolean {
    return this.filesOf(projectId).every((f) => f.state !== 'uploading');
  }

  /** Adds files (dropped, pasted or picked): each checked, then uploaded. */
  async add(projectId: string, files: readonly File[]): Promise<void> {
    if (projectId === '') return;
    const list = this.byProject.get(projectId) ?? [];
    if (!this.byProject.has(projectId)) this.byProject.set(projectId, list);
    const uploads: Promise<void>[] = [];
    for (const file of files) {
      const live = this.byProject.get(projectId) as PendingFile[];
      const type = typeOf(file);
      const error = live.filter((f) => f.state !== 'failed').length >= MAX_ATTACHMENTS_PER_MESSAGE ? TOO_MANY : attachmentType(type) === null ? wrongType(file.name) : file.size > ATTACHMENT_MAX_BYTES ? tooBig(file.name) : null;
      const entry: PendingFile = {
        id: this.ids.next(),
        name: file.name,
        type,
        size: file.size,
        previewUrl: error === null && type.startsWith('image/') ? this.previews.create(file) : null,
        state: error === null ? 'uploading' : 'failed',
        error,
        attachment: null,
      };
      live.push(entry);
      if (error === null) uploads.push(this.upload(projectId, entry.id, file, type));
    }
    await Promise.all(uploads);
  }

  remove(projectId: string, id: string): void {
    const list = this.byProject.get(projectId);
    if (list === undefined) return;
    const gone = list.find((f) => f.id === id);
    if (gone?.previewUrl) this.previews.revoke(gone.previewUrl);
    this.byProject.set(projectId, list.filter((f) => f.id !== id));
  }

  /** The uploaded files, for the message being sent; the project's pending list is emptied. */
  take(projectId: string): SentAttachment[] {
    const list = this.filesOf(projectId);
    const sent = list.flatMap((f): SentAttachment[] =>
      f.state === 'ready' && f.attachment !== null ? [{ id: f.attachment.id, path: f.attachment.path, fileName: f.attachment.file_name, contentType: f.attachment.content_type, name: f.attachment.name }] : [],
    );
    for (const f of list) if (f.previewUrl) this.previews.revoke(f.previewUrl);
    this.byProject.delete(projectId);
    return sent;
  }

  private async upload(projectId: string, id: string, file: Blob, type: string): Promise<void> {
    const name = (this.find(projectId, id)?.name ?? 'file').slice(0, 200);
    const body = file.type === type ? file : file.slice(0, file.size, type);
    try {
      const attachment = await this.api.upload(projectId, body, name);
      runInAction(() => {
        const entry = this.find(projectId, id);
        if (entry === undefined) return;
        entry.attachment = attachment;
        entry.state = 'ready';
      });
    } catch (error) {
      runInAction(() => {
        const entry = this.find(projectId, id);
        if (entry === undefined) return;
        entry.state = 'failed';
        entry.error = uploadError(name, error);
      });
    }
  }

  private find(projectId: string, id: string): PendingFile | undefined {
    return this.byProject.get(projectId)?.find((f) => f.id === id);
  }
}

/** An upload's failure in words. */
function uploadError(name: string, error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 413) return tooBig(name);
    if (error.status === 415) return error.code === 'ATTACHMENTS.UNSUPPORTED_TYPE' && /is not a/.test(error.message) ? `“${name}”: ${error.message}` : wrongType(name);
    if (error.status === 503) return `“${name}” could not be stored right now. Remove it and try again in a moment.`;
    if (error.status === 404) return `“${name}” could not be attached: this project was not found.`;
    if (error.message !== '') return `“${name}”: ${error.message}`;
  }
  return `“${name}” could not be attached. Check your connection, remove it and try again.`;
}

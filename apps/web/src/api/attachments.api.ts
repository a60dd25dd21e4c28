// Files attached to the builder's prompts: POST /api/projects/{id}/attachments (docs/ai-api.md
// "Attachments"): the raw bytes, their type in Content-Type, their name in X-File-Name.
import { inject, injectable } from 'inversify';
import { type HttpClient, TYPES } from '../app/ports';

/** An uploaded attachment, as the API answers it. */
export interface AttachmentDto {
  readonly id: string;
  readonly name: string;
  readonly file_name: string;
  /** `/attachments/<file_name>`: where the app reaches it once a message carried it. */
  readonly path: string;
  readonly content_type: string;
  readonly size: number;
  readonly created_at: string;
}

/** The composer's port (TYPES.AttachmentsApi). */
export interface AttachmentsApi {
  /** Uploads one file; rejects with ApiError (413 too big, 415 wrong type, 503 unavailable). Never retried. */
  upload(projectId: string, file: Blob, name: string): Promise<AttachmentDto>;
}

@injectable()
export class HttpAttachmentsApi implements AttachmentsApi {
  constructor(@inject(TYPES.Http) private readonly http: HttpClient) {}

  upload(projectId: string, file: Blob, name: string): Promise<AttachmentDto> {
    return this.http.post<AttachmentDto>(`/api/projects/${encodeURIComponent(projectId)}/attachments`, file, {
      headers: { 'Content-Type': file.type || 'application/octet-stream', 'X-File-Name': encodeURIComponent(name) },
      retry: false,
    });
  }
}

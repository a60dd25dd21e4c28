import type { AttachedFile } from '../ai/ai-assistant.port.js';
import type { TurnAttachmentSource } from '../ai/context/turn-attachments.port.js';
import type { DomainError } from '../shared/domain-error.js';
import { err, ok, type Result } from '../shared/result.js';
import type { ObjectStore } from '../storage/object-store.port.js';
import type { Attachment } from './attachment.entity.js';
import { attachmentNotFound, attachmentStoreUnavailable } from './attachment.errors.js';
import { appendAttachments, attachmentRefOf, attachmentsOf } from './attachment-lines.js';
import type { AttachmentRepository } from './attachment-repository.port.js';
import { readBytes } from './attachments.use-cases.js';

/** At most this many files with one message. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10;

/** TurnAttachmentSource over Kiln's attachment rows and the ObjectStore. */
export class AttachmentsForTurns implements TurnAttachmentSource {
  constructor(
    private readonly attachments: AttachmentRepository,
    private readonly store: ObjectStore,
  ) {}

  async attach(projectId: string, message: string, ids: readonly string[]): Promise<Result<string, DomainError>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return ok(message);
    const found: Attachment[] = [];
    for (const id of unique) {
      const attachment = await this.attachments.find(projectId, id);
      if (attachment === null) return err(attachmentNotFound(id));
      found.push(attachment);
    }
    return ok(appendAttachments(message, found.map(attachmentRefOf)));
  }

  async filesOf(projectId: string, message: string): Promise<readonly AttachedFile[]> {
    const files: AttachedFile[] = [];
    for (const ref of attachmentsOf(message).slice(0, MAX_ATTACHMENTS_PER_MESSAGE)) {
      const attachment = await this.attachments.findByFileName(projectId, ref.fileName);
      if (attachment === null) continue;
      const bytes = await readBytes(this.store, attachment);
      if (!bytes.ok) throw new Error(attachmentStoreUnavailable().message);
      if (bytes.value === null) continue;
      files.push({ path: ref.path, contentType: attachment.contentType, name: attachment.name, bytes: bytes.value });
    }
    return files;
  }
}

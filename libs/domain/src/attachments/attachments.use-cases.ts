import type { ProjectAttachmentRemoval } from '../projects/project-attachment-removal.port.js';
import type { ProjectNotFound } from '../projects/project.errors.js';
import type { ProjectOwnership } from '../projects/project-ownership.js';
import type { Clock } from '../shared/clock.port.js';
import type { IdGenerator } from '../shared/ids.port.js';
import { err, ok, type Result } from '../shared/result.js';
import type { ObjectStore } from '../storage/object-store.port.js';
import { attachmentObjectKey, attachmentsPrefix, createAttachment, type Attachment, type NewAttachmentInput } from './attachment.entity.js';
import {
  attachmentNotFound,
  attachmentStoreUnavailable,
  type AttachmentInvalid,
  type AttachmentNotFound,
  type AttachmentStoreUnavailable,
  type AttachmentTooLarge,
  type AttachmentTypeRefused,
} from './attachment.errors.js';
import type { AttachmentRepository } from './attachment-repository.port.js';

export type UploadAttachmentError = ProjectNotFound | AttachmentTooLarge | AttachmentTypeRefused | AttachmentInvalid | AttachmentStoreUnavailable;

/**
 * A file dropped into the chat (owner only): checked (size, type, bytes that match the type,
 * a clean name), its bytes put in the ObjectStore first and then its row recorded, so a row never
 * names missing bytes. A store that cannot be reached is ATTACHMENTS.STORE_UNAVAILABLE (503);
 * bytes stored but not recorded (the database failed) are deleted again before the error goes up.
 */
export class UploadAttachment {
  constructor(
    private readonly projects: ProjectOwnership,
    private readonly attachments: AttachmentRepository,
    private readonly store: ObjectStore,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: NewAttachmentInput): Promise<Result<Attachment, UploadAttachmentError>> {
    const owned = await this.projects.find(input.userId, input.projectId);
    if (!owned.ok) return owned;
    const created = createAttachment(input, { id: this.ids.next(), now: this.clock.now() });
    if (!created.ok) return created;
    const attachment = created.value;
    const key = attachmentObjectKey(attachment.projectId, attachment.id);
    try {
      await this.store.put(key, input.bytes, attachment.contentType);
    } catch {
      return err(attachmentStoreUnavailable());
    }
    try {
      await this.attachments.add(attachment);
    } catch (cause) {
      await this.store.delete([key]).catch(() => undefined);
      throw cause;
    }
    return ok(attachment);
  }
}

export interface AttachmentContent {
  readonly attachment: Attachment;
  readonly bytes: Uint8Array;
}

/** An attachment's bytes (owner only), e.g. for the composer's thumbnail. */
export class GetAttachment {
  constructor(
    private readonly projects: ProjectOwnership,
    private readonly attachments: AttachmentRepository,
    private readonly store: ObjectStore,
  ) {}

  async execute(input: { readonly userId: string; readonly projectId: string; readonly id: string }): Promise<Result<AttachmentContent, ProjectNotFound | AttachmentNotFound | AttachmentStoreUnavailable>> {
    const owned = await this.projects.find(input.userId, input.projectId);
    if (!owned.ok) return owned;
    const attachment = await this.attachments.find(input.projectId, input.id);
    if (attachment === null) return err(attachmentNotFound(input.id));
    const loaded = await readBytes(this.store, attachment);
    if (!loaded.ok) return loaded;
    if (loaded.value === null) return err(attachmentNotFound(input.id));
    return ok({ attachment, bytes: loaded.value });
  }
}

/**
 * A deleted project's attachments (ProjectAttachmentRemoval): bytes first, then rows (a retry after
 * a failure finds the rows and deletes again). A store that cannot be reached is
 * ATTACHMENTS.STORE_UNAVAILABLE; a database that cannot be reached rejects.
 */
export class RemoveProjectAttachments implements ProjectAttachmentRemoval {
  constructor(
    private readonly attachments: AttachmentRepository,
    private readonly store: ObjectStore,
  ) {}

  async removeFor(projectId: string): Promise<Result<void, AttachmentStoreUnavailable>> {
    // A project without attachments never needs the store (which may not be configured).
    if ((await this.attachments.countByProject(projectId)) === 0) return ok(undefined);
    try {
      await this.store.deletePrefix(attachmentsPrefix(projectId));
    } catch {
      return err(attachmentStoreUnavailable());
    }
    await this.attachments.deleteByProject(projectId);
    return ok(undefined);
  }
}

export async function readBytes(store: ObjectStore, attachment: Attachment): Promise<Result<Uint8Array | null, AttachmentStoreUnavailable>> {
  try {
    const found = await store.get(attachmentObjectKey(attachment.projectId, attachment.id));
    return ok(found === null ? null : found.bytes);
  } catch {
    return err(attachmentStoreUnavailable());
  }
}

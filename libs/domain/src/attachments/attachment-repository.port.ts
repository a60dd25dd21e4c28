import type { Attachment } from './attachment.entity.js';

/**
 * Kiln's record of the files attached to a project's prompts (issue 18 item 3). The bytes are in
 * the ObjectStore at attachmentObjectKey(); the row says whose they are and what they are called.
 * Every method rejects when the database cannot be reached.
 */
export interface AttachmentRepository {
  /** Records a new attachment (its id is new). */
  add(attachment: Attachment): Promise<void>;
  /** The attachment of this project with this id, or null (another project's is null too). */
  find(projectId: string, id: string): Promise<Attachment | null>;
  /** The project's attachment whose public file name is `fileName`, or null. */
  findByFileName(projectId: string, fileName: string): Promise<Attachment | null>;
  /** How many attachments the project has. */
  countByProject(projectId: string): Promise<number>;
  /** Forgets every attachment of the project; answers how many there were. */
  deleteByProject(projectId: string): Promise<number>;
}

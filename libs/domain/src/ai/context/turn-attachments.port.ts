import type { DomainError } from '../../shared/domain-error.js';
import type { Result } from '../../shared/result.js';
import type { AttachedFile } from '../ai-assistant.port.js';

/**
 * The files attached to a turn's message (issue 18 item 3); the attachments room answers it
 * (AttachmentsForTurns). Optional in a turn's dependencies: without it a message carries none.
 */
export interface TurnAttachmentSource {
  /**
   * The message with a line for each attachment (attachments/attachment-lines.ts), when every id
   * is an attachment of the project; ATTACHMENTS.NOT_FOUND (404) otherwise. Rejects when the
   * database cannot be reached.
   */
  attach(projectId: string, message: string, ids: readonly string[]): Promise<Result<string, DomainError>>;
  /**
   * The files the message's lines name, with their bytes (names of other projects' or unknown
   * files are left out). Rejects when the store or the database cannot be reached.
   */
  filesOf(projectId: string, message: string): Promise<readonly AttachedFile[]>;
}

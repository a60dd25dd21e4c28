import type { DomainError } from '../shared/domain-error.js';
import type { Result } from '../shared/result.js';

/**
 * A deleted project's attached files (issue 18 item 3), deleted with it: their bytes and their
 * rows. The attachments room implements it (RemoveProjectAttachments), so the dependency stays
 * one way. An error (the object store unreachable: ATTACHMENTS.STORE_UNAVAILABLE, 503) fails the
 * delete, which may be retried.
 */
export interface ProjectAttachmentRemoval {
  removeFor(projectId: string): Promise<Result<void, DomainError>>;
}

import type { DomainError } from '../shared/domain-error.js';
import type { Result } from '../shared/result.js';

/**
 * A deleted project's database, dropped with it (docs/decisions.md: nothing can bring a deleted
 * project back, so its data would only be kept forever for nobody). The projects room does not
 * know about databases; the databases room implements this port, so the dependency stays one way.
 */
export interface ProjectDatabaseRemoval {
  /**
   * Drops the project's database, its roles and data, and forgets Kiln's record; nothing when it
   * has none; idempotent. An error (its provider unreachable: DATABASES.SERVER_UNAVAILABLE) fails
   * the delete, which may be retried: the project is never deleted with its database left behind.
   */
  dropFor(projectId: string): Promise<Result<void, DomainError>>;
}

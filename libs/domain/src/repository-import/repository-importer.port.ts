import type { GitUrl } from './git-url.js';

/** What an import brought in. */
export interface ImportedRepository {
  /** Files written into the project. */
  readonly files: number;
  readonly bytes: number;
}

/**
 * Imports a public repository into a project (SPEC §7 setup/repository): the clone runs inside
 * the sandbox boundary (its only way out is the repository's origin), shallow and size-capped,
 * with no hook run; the repository's files then replace the project's (never its installed
 * packages or its database connection), without git's folder. A failure rejects with a message
 * safe to show (RepositoryImportError); anything else is a bug or the host failing.
 */
export interface RepositoryImporter {
  importRepository(sandboxId: string, url: GitUrl): Promise<ImportedRepository>;
}

/** An import that did not work, with the reason a person can act on (no server paths in it). */
export class RepositoryImportError extends Error {
  readonly code = 'REPOSITORY.IMPORT_FAILED';
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'RepositoryImportError';
  }
}

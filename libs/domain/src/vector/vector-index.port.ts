import type { ProjectFile } from '../ai/ai-assistant.port.js';

/** SPEC §9: a vector query returns at most 10 matches unless told otherwise. */
export const DEFAULT_VECTOR_QUERY_LIMIT = 10;

/** A file that answers a query. Higher scores are closer (comparable within one answer only). */
export interface VectorMatch {
  /** Project-relative path of the file. */
  readonly path: string;
  /** Greater than 0; the score of the file's best chunk. */
  readonly score: number;
  /** A short excerpt of the best chunk, from its line holding the most query terms (snippetFor). */
  readonly snippet: string;
}

/** What an index holds for one file (for status pages and tests). */
export interface IndexedFileSummary {
  readonly path: string;
  /** How many chunks the file was cut into (chunkFile). */
  readonly chunks: number;
}

/**
 * A searchable index of each project's files, used to give the AI the files that matter for a
 * request (SPEC §7 "Vector index"). Keys are project ids, or template ids (`template:<name>`) for
 * indexes that projects start from.
 *
 * Every adapter indexes through prepareIndex: paths are normalised (resolveSandboxPath), files
 * under the SPEC §9 tree ignore list, binary files and huge files are skipped, and each file is
 * cut into chunks of about CHUNK_LINES lines that all carry the file's path, so large files do
 * not dominate and a query naming a file finds it. Terms are searchTerms (identifiers split on
 * camelCase and snake_case).
 *
 * Writes to one project are serialised and atomic: a query sees the index before or after a
 * write, never half of it, and two concurrent writes never leave duplicate or mixed chunks.
 */
export interface VectorIndex {
  /** Replaces the project's whole index with these files. */
  fullReindex(projectId: string, files: readonly ProjectFile[]): Promise<void>;
  /**
   * Re-indexes the changed files (a changed file that is now skipped, e.g. grown huge, leaves the
   * index) and drops the removed paths — each a file or a folder, everything under it; '.' is the
   * whole project. A path both changed and removed ends up indexed.
   */
  partialReindex(projectId: string, changed: readonly ProjectFile[], removed: readonly string[]): Promise<void>;
  /**
   * Replaces the project's index with a copy of the template's (another key of this index).
   * Answers false, changing nothing, when the template has no index.
   */
  cloneTemplate(projectId: string, templateId: string): Promise<boolean>;
  /**
   * The files closest to the text, best first (score descending, then path), one entry per file,
   * at most `limit` (default DEFAULT_VECTOR_QUERY_LIMIT; a positive whole number). Text without
   * any search term answers [].
   */
  query(projectId: string, text: string, limit?: number): Promise<readonly VectorMatch[]>;
  /** The indexed files of a project, by path. */
  listFiles(projectId: string): Promise<readonly IndexedFileSummary[]>;
  /** Drops the project's index (a deleted project). */
  remove(projectId: string): Promise<void>;
}

/** Adapters check the limit the same way: a bug in the caller, not a domain outcome. */
export function assertQueryLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`A query limit must be a positive whole number, got ${limit}`);
}

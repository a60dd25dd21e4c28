import type { FileTreeEntry } from '../sandbox/sandbox-host.port.js';

/** SPEC §9: a vector query returns at most 10 matches unless told otherwise. */
export const DEFAULT_VECTOR_QUERY_LIMIT = 10;

/** A piece of a project's content that answers a query. Higher scores are closer. */
export interface VectorMatch {
  readonly path: string;
  readonly content: string;
  readonly score: number;
}

/** A searchable index of each project's content, used to give the AI relevant context (SPEC §7). */
export interface VectorIndex {
  /** Drops the project's index and rebuilds it from the given tree. */
  fullReindex(projectId: string, fileTree: readonly FileTreeEntry[]): Promise<void>;
  /** Re-indexes only the files in the given tree (the ones that changed). */
  partialReindex(projectId: string, fileTree: readonly FileTreeEntry[]): Promise<void>;
  /** Starts a new project's index as a copy of a template's. */
  cloneTemplate(templateId: string, projectId: string): Promise<void>;
  /** The closest matches, best first; `limit` defaults to DEFAULT_VECTOR_QUERY_LIMIT. */
  query(query: string, projectId: string, limit?: number): Promise<readonly VectorMatch[]>;
}

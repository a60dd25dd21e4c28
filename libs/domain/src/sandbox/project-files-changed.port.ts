/** Why a project's files changed (the builder's feed says it; docs/sandbox-api.md). */
export type FilesChangedReason = 'write' | 'delete' | 'create-directory' | 'rename' | 'restore' | 'command';

export interface FilesChange {
  /** The paths written, deleted or created; none: anything may have changed (a command, a restore, a revert). */
  readonly paths: readonly string[];
  readonly reason: FilesChangedReason;
}

/**
 * Whoever follows a project's files hears of every change here, once: the builder (its realtime
 * feed: the tree and the preview reload) and the project's search index. Never throws: a write
 * must not fail because a follower did.
 */
export interface ProjectFilesChanged {
  filesChanged(projectId: string, change: FilesChange): void;
  /** A new sandbox holds the starter's files: the search index takes them all. */
  sandboxCreated(projectId: string): void;
  /** The sandbox and every file are gone: the builder hears it stopped and emptied, the index forgets the project. */
  sandboxRemoved(projectId: string): void;
}

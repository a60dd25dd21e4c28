/**
 * A release: one immutable build of a project at one commit. Releases are numbered per project
 * from 1; a release is never changed after it is made, so rolling back is pointing at it again.
 */
export interface Release {
  readonly id: string;
  readonly projectId: string;
  /** 1, 2, 3 … per project, in the order they were built. */
  readonly number: number;
  /** The sandbox version (git commit) the release was built from. */
  readonly commit: string;
  /** Total bytes of the release's files. */
  readonly sizeBytes: number;
  readonly fileCount: number;
  readonly createdAt: Date;
}

/** SPEC §8: saving and restoring a version fail as answers (success false with a message), not throws. */
export interface SaveVersionResult {
  readonly success: boolean;
  readonly message: string;
  /** The new version's hash, when one was saved. */
  readonly hash?: string;
}

export interface RestoreVersionResult {
  readonly success: boolean;
  readonly message: string;
  /** The new version that holds the restored files (restoring never rewrites history). */
  readonly hash?: string;
}

/** One version in a project's history (the builder's "commits"), newest first in versionHistory. */
export interface SandboxVersion {
  readonly hash: string;
  readonly message: string;
  readonly date: Date;
  /** Project-relative paths the version added, changed or removed. */
  readonly filesChanged: readonly string[];
}

/**
 * A project's saved versions (SPEC §7 version routes, `git/…` over HTTP). Saving and restoring
 * answer their failures as results; the history rejects (SPEC §8's empty answer is the caller's).
 */
export interface SandboxVersions {
  /** Saves every change in the project as a new version; nothing to save is `success: false`. */
  saveVersion(sandboxId: string, message: string): Promise<SaveVersionResult>;
  /** Every version, newest first. */
  versionHistory(sandboxId: string): Promise<readonly SandboxVersion[]>;
  /**
   * Puts the project's files back as they were at version `hash`, as a new version on top: later
   * versions stay in the history (unsaved changes are saved first, so nothing is lost).
   */
  restoreVersion(sandboxId: string, hash: string): Promise<RestoreVersionResult>;
  /**
   * Puts one file back as it was just before version `hash` (in that version's parent; a file the
   * version added did not exist then, so it is deleted), as a new version on top; unsaved changes
   * are saved first. `path` is a project path already checked by resolveSandboxPath. Unknown
   * versions and a path that is a folder are `success: false`; nothing to change is success
   * without a hash.
   */
  restoreFile(sandboxId: string, hash: string, path: string): Promise<RestoreVersionResult>;
}

/** One regular file of a project, as an export reads it (never through a link). */
export interface ProjectFileBytes {
  /** Project-relative, with '/'. */
  readonly path: string;
  readonly bytes: Uint8Array;
}

export interface ExportFilesOptions {
  /** Names (at any depth) or '*.ext' patterns left out, as matchesTreeIgnore reads them. */
  readonly exclude: readonly string[];
  /** The files' bytes together may not pass this: SandboxLimitReached (SANDBOX.TOO_LARGE), before the first file when the sizes already say so. */
  readonly maxBytes: number;
}

/**
 * The builder's file-tree actions a sandbox needs beyond SPEC §7's file routes (issue #17 item 8).
 * Paths follow the same rules as SandboxFiles (resolveSandboxPath, then the host's own walk that
 * never goes through a link out of the project). A name already taken rejects with errno EEXIST,
 * a missing one with ENOENT, as SandboxFiles does.
 */
export interface SandboxFileActions {
  /** Creates an empty file (and missing parent folders); a taken name rejects (EEXIST), nothing is replaced. */
  createFile(sandboxId: string, path: string): Promise<void>;
  /** Renames or moves a file, a link (never what it points to) or a folder; `to` must be free (EEXIST), its parents are created. */
  movePath(sandboxId: string, from: string, to: string): Promise<void>;
  /** Creates or replaces a file with these bytes (an image), creating parent folders, all or nothing. */
  writeFileBytes(sandboxId: string, path: string, bytes: Uint8Array): Promise<void>;
  /** Every regular file not excluded, sorted by path; links and special files are skipped, never followed. */
  exportFiles(sandboxId: string, options: ExportFilesOptions): AsyncIterable<ProjectFileBytes>;
}

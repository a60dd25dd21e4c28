import { AI_SUPPORT_FOLDER } from './code-error.js';

/** Kiln's own files in a generated app; the template and the sandbox adapter share these names. */
export const REPO_MAP_FILE = 'repo-map.json';
export const DEV_DATABASE_FILE = 'dev.db';
export const TEMP_BUILD_DIR = '.kiln-build';
export const TEMP_SQL_QUERY_FILE = 'temp-query.sql';

/**
 * SPEC §9 tree ignore list: what the file tree, the AI and the vector index never see. An entry
 * is a file or folder name matched at any depth, or '*.ext' for every name with that ending
 * (see matchesTreeIgnore).
 */
export const TREE_IGNORE_LIST = Object.freeze([
  'node_modules',
  'dist',
  'build',
  'public',
  'next',
  '.git',
  '.next',
  '.nuxt',
  'package-lock.json',
  '*.tsbuildinfo',
  REPO_MAP_FILE,
  AI_SUPPORT_FOLDER,
  DEV_DATABASE_FILE,
  '.env',
  TEMP_BUILD_DIR,
  TEMP_SQL_QUERY_FILE,
  // Tool caches (npm, pnpm, eslint, generic ~/.cache) never belong to the project's files.
  '.npm',
  '.cache',
  '.pnpm-store',
  '.eslintcache',
] as const);

/** SPEC §3 file tree entry. Directories carry children; files do not. Paths are project-relative. */
export interface FileTreeEntry {
  readonly name: string;
  readonly type: 'file' | 'directory';
  readonly path: string;
  readonly children?: readonly FileTreeEntry[];
}

/** SPEC §3 file list entry, with the file's text when the listing asked for contents. */
export interface FileListEntry {
  readonly name: string;
  readonly type: 'file' | 'directory';
  readonly content?: string;
}

export interface ReadDirectoryOptions {
  /** Include each file's text (default false). */
  readonly includeContents?: boolean;
  /** Names or '*.ext' patterns to leave out (default none). */
  readonly ignorePatterns?: readonly string[];
}

/**
 * A sandbox's files (SPEC §7 file routes). Every path is resolved inside the project
 * (resolveSandboxPath, then the host's own walk on disk, which follows a link only to somewhere
 * inside the project); a refused path rejects with SandboxPathRefused (SANDBOX.PATH_OUTSIDE,
 * SANDBOX.PATH_TOO_LONG or SANDBOX.LINK_LOOP, HTTP 400), a listing or tree over the caps of
 * sandbox-limits.ts with SandboxLimitReached (SANDBOX.TOO_LARGE, HTTP 413). A missing file or
 * sandbox rejects; SPEC §8's fallbacks (false, an empty list) are the callers' policy.
 */
export interface SandboxFiles {
  /** The file's text. */
  readFile(sandboxId: string, path: string): Promise<string>;
  /** Creates or replaces the file, creating parent folders as needed. */
  writeFile(sandboxId: string, path: string, content: string): Promise<void>;
  deleteFile(sandboxId: string, path: string): Promise<void>;
  /** The direct entries of a folder. */
  readDirectory(sandboxId: string, path: string, options?: ReadDirectoryOptions): Promise<readonly FileListEntry[]>;
  /** The entries under `path`, recursively; `ignore` defaults to TREE_IGNORE_LIST. */
  getTree(sandboxId: string, path: string, ignore?: readonly string[]): Promise<readonly FileTreeEntry[]>;
  /** Creates the folder and any missing parents; an existing folder is fine. */
  createDirectory(sandboxId: string, path: string): Promise<void>;
}

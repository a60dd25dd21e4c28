import type { DomainError } from '../shared/domain-error.js';

/*
 * What one file-route answer may hold, whatever the project's folder holds (a command can make a
 * million files or a 9 MB one in a second). Over a cap the answer is a 413 SANDBOX.TOO_LARGE that
 * names the cap, never a partial answer, and the host stops reading as soon as it knows.
 */

const MIB = 1024 * 1024;

/** Largest file read-file returns. */
export const MAX_READ_FILE_BYTES = 10 * MIB;
/** read-directory with contents: the files' bytes together … */
export const MAX_LISTING_CONTENT_BYTES = 8 * MIB;
/** … and the entries of the folder. */
export const MAX_LISTING_ENTRIES_WITH_CONTENTS = 1_000;
/** read-directory without contents: the entries of the folder. */
export const MAX_LISTING_ENTRIES = 20_000;
/** get-tree: entries in the whole answer … */
export const MAX_TREE_ENTRIES = 20_000;
/** … the bytes of their names and paths together … */
export const MAX_TREE_BYTES = 8 * MIB;
/** … and folders nested in one another (walks of the project folder stop there too). */
export const MAX_TREE_DEPTH = 256;

/** Which cap an answer went over. */
export type SandboxAnswerCap = 'file-bytes' | 'listing-bytes' | 'listing-entries' | 'tree-entries' | 'tree-bytes' | 'tree-depth' | 'export-bytes';

/** The answer would be larger than the cap allows (the API answers 413). */
export type SandboxTooLarge = DomainError<'SANDBOX.TOO_LARGE'> & {
  readonly cap: SandboxAnswerCap;
  readonly limit: number;
};

const CAP_WORDS: Readonly<Record<SandboxAnswerCap, (limit: number) => string>> = {
  'file-bytes': (limit) => `The file is too large to read: at most ${limit} bytes`,
  'listing-bytes': (limit) => `The folder's files are too large to read together: at most ${limit} bytes with contents; read them one by one`,
  'listing-entries': (limit) => `The folder has too many entries to list: at most ${limit}`,
  'tree-entries': (limit) => `The tree is too large: at most ${limit} entries; ask for a folder inside it`,
  'tree-bytes': (limit) => `The tree is too large: at most ${limit} bytes of names and paths; ask for a folder inside it`,
  'tree-depth': (limit) => `The folders are nested too deep: at most ${limit} levels`,
  'export-bytes': (limit) => `The project is too large to export: at most ${limit} bytes of files (installed packages and caches are left out)`,
};

export const sandboxTooLarge = (cap: SandboxAnswerCap, limit: number): SandboxTooLarge => ({
  code: 'SANDBOX.TOO_LARGE',
  cap,
  limit,
  message: CAP_WORDS[cap](limit),
});

/** A write would take the project's folder over its disk limit (the API answers 413). */
export type SandboxDiskLimit = DomainError<'SANDBOX.DISK_LIMIT'> & {
  readonly limitBytes: number;
  /** The project's size had the write gone through. */
  readonly wouldBeBytes: number;
};

export const sandboxDiskLimit = (limitBytes: number, wouldBeBytes: number): SandboxDiskLimit => ({
  code: 'SANDBOX.DISK_LIMIT',
  limitBytes,
  wouldBeBytes,
  message: `The project would be larger than its disk limit of ${limitBytes} bytes`,
});

export type SandboxLimitError = SandboxTooLarge | SandboxDiskLimit;

/** What a SandboxHost adapter throws when an answer or a write goes over a limit; `code` is the error's. */
export class SandboxLimitReached extends Error {
  readonly code: SandboxLimitError['code'];
  constructor(readonly error: SandboxLimitError) {
    super(error.message);
    this.name = 'SandboxLimitReached';
    this.code = error.code;
  }
}

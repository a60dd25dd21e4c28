/** The AI-support folder's name: Kiln's own files inside a generated app (never the user's code). */
export const AI_SUPPORT_FOLDER = '.kiln';
/** SPEC §5: errors from the AI-support folder under src are ignored. */
export const AI_SUPPORT_DIR = `src/${AI_SUPPORT_FOLDER}` as const;

export type ErrorSeverity = 'error' | 'warning';

/** A problem found in a project's code (SPEC §3). Line and column are 1-based. */
export interface CodeError {
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly stack?: string;
  readonly severity: ErrorSeverity;
}

/** A code error the builder tracks: how often it was seen and whether it is fixed (SPEC §3, §4). */
export interface CodeErrorRecord extends CodeError {
  readonly id: string;
  /** When the error was first recorded. */
  readonly timestamp: Date;
  readonly count: number;
  readonly solved: boolean;
  /** The AI is working on a fix right now. */
  readonly isSolving: boolean;
}

/** SPEC §5: a message mentioning any of these (case-insensitive) is only a warning. */
export const WARNING_KEYWORDS = [
  'unused',
  'never used',
  'never read',
  'deprecated',
  'warning',
  'style guide',
  'consider using',
  'unnecessary',
] as const;

export function classifyErrorSeverity(message: string): ErrorSeverity {
  const lower = message.toLowerCase();
  return WARNING_KEYWORDS.some((keyword) => lower.includes(keyword)) ? 'warning' : 'error';
}

/**
 * True for a file inside src/.kiln, however the path is written: 'src/.kiln/x.ts',
 * './src/.kiln/x.ts', '/app/src/.kiln/x.ts' or with Windows separators. Paths are compared
 * case-sensitively, as on the Linux sandboxes; 'mysrc/.kiln' and 'src/.kilnx' do not match.
 */
export function isIgnoredErrorFile(file: string): boolean {
  const path = `/${file.trim().replaceAll('\\', '/')}/`;
  return path.includes(`/${AI_SUPPORT_DIR}/`);
}

/** Starts tracking an error the builder has just seen. */
export function newErrorRecord(error: CodeError, context: { readonly id: string; readonly now: Date }): CodeErrorRecord {
  return Object.freeze({ ...error, id: context.id, timestamp: context.now, count: 1, solved: false, isSolving: false });
}

/** Seen again in a later scan. */
export function errorSeenAgain(record: CodeErrorRecord): CodeErrorRecord {
  return Object.freeze({ ...record, count: record.count + 1 });
}

/** SPEC §4: the AI is fixing the error. */
export function markErrorSolving(record: CodeErrorRecord): CodeErrorRecord {
  return Object.freeze({ ...record, isSolving: true });
}

/** SPEC §4: the error is solved; nobody is fixing it any more. */
export function markErrorSolved(record: CodeErrorRecord): CodeErrorRecord {
  return Object.freeze({ ...record, solved: true, isSolving: false });
}

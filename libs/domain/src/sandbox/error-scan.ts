import { type CodeError, isIgnoredErrorFile } from './code-error.js';

/** What a scan of a project's code found (SPEC §7 find-errors), with counts per severity. */
export interface ErrorScan {
  readonly errors: readonly CodeError[];
  readonly errorCount: number;
  readonly warningCount: number;
}

/** SPEC §8: a failed scan reports zero counts. */
export const EMPTY_ERROR_SCAN: ErrorScan = Object.freeze({ errors: Object.freeze([]), errorCount: 0, warningCount: 0 });

/** Builds a scan from raw findings, dropping errors from the AI-support folder (SPEC §5). */
export function errorScanFrom(found: readonly CodeError[]): ErrorScan {
  const errors = found.filter((e) => !isIgnoredErrorFile(e.file));
  const warningCount = errors.filter((e) => e.severity === 'warning').length;
  return Object.freeze({ errors: Object.freeze(errors), errorCount: errors.length - warningCount, warningCount });
}

import { type CodeError, isIgnoredErrorFile } from './code-error.js';

/** What a scan of a project's code found (SPEC §7 find-errors), with counts per severity. */
export interface ErrorScan {
  readonly errors: readonly CodeError[];
  readonly errorCount: number;
  readonly warningCount: number;
  /**
   * Set when the check could not run (the type-checker did not start, a timeout, a crash): why,
   * in words safe to show people (no server paths). The zero counts then mean "not checked",
   * never "no problems". Absent: the check ran and its counts are the answer.
   */
  readonly unavailableReason?: string;
}

/** Whether the scan's counts are an answer ('checked') or stand for a check that could not run. */
export type ErrorScanStatus = 'checked' | 'unavailable';

export function errorScanStatus(scan: ErrorScan): ErrorScanStatus {
  return scan.unavailableReason === undefined ? 'checked' : 'unavailable';
}

/** SPEC §8: a failed scan reports zero counts (empty, as a checked scan of nothing). */
export const EMPTY_ERROR_SCAN: ErrorScan = Object.freeze({ errors: Object.freeze([]), errorCount: 0, warningCount: 0 });

/** What is said when a scan failed in a way the host did not explain. */
export const UNEXPLAINED_SCAN_FAILURE = 'The check failed unexpectedly on the server.';

/** SPEC §8's zero counts for a check that could not run, with the reason (safe to show). */
export function unavailableErrorScan(reason: string): ErrorScan {
  const text = reason.trim() === '' ? UNEXPLAINED_SCAN_FAILURE : reason.trim();
  return Object.freeze({ errors: Object.freeze([]), errorCount: 0, warningCount: 0, unavailableReason: text });
}

/** Builds a scan from raw findings, dropping errors from the AI-support folder (SPEC §5). */
export function errorScanFrom(found: readonly CodeError[]): ErrorScan {
  const errors = found.filter((e) => !isIgnoredErrorFile(e.file));
  const warningCount = errors.filter((e) => e.severity === 'warning').length;
  return Object.freeze({ errors: Object.freeze(errors), errorCount: errors.length - warningCount, warningCount });
}

/**
 * How a SandboxDiagnostics host rejects a scan that could not run: `reason` is meant for people
 * (no server paths or tool output), `detail` (tool output) for the server's log only, in the
 * message. Recognised by name too, so a rejection from another copy of the domain is still known.
 */
export class ErrorScanUnavailable extends Error {
  constructor(
    readonly reason: string,
    readonly detail?: string,
  ) {
    super(detail === undefined || detail.trim() === '' ? reason : `${reason}\n${detail}`);
    this.name = 'ErrorScanUnavailable';
  }
}

/** The reason to show for a scan's rejection: the host's own words when it explained, else a generic one. */
export function unavailableReasonOf(error: unknown): string {
  if (error instanceof ErrorScanUnavailable) return error.reason;
  const reason: unknown = error instanceof Error && error.name === 'ErrorScanUnavailable' ? (error as { reason?: unknown }).reason : undefined;
  if (typeof reason === 'string') return reason;
  return UNEXPLAINED_SCAN_FAILURE;
}

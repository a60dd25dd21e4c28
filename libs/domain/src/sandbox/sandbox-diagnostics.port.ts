import type { ErrorScan } from './error-scan.js';

/** What is wrong with a project's code (SPEC §7 find-errors). */
export interface SandboxDiagnostics {
  /**
   * Type-checks and lints the project; the AI-support folder is already left out (errorScanFrom).
   * Packages package.json asks for are installed first; one that cannot be installed is an error
   * in package.json (the scan does not reject for it). A scan that cannot run rejects (SPEC §8:
   * the caller answers zero counts, EMPTY_ERROR_SCAN), and so does a missing sandbox.
   */
  findErrors(sandboxId: string): Promise<ErrorScan>;
}

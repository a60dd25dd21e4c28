import type { ErrorScan } from './error-scan.js';

/** What is wrong with a project's code (SPEC §7 find-errors). */
export interface SandboxDiagnostics {
  /**
   * Type-checks and lints the project; the AI-support folder is already left out (errorScanFrom).
   * Packages package.json asks for are installed first; one that cannot be installed is an error
   * in package.json (the scan does not reject for it). A scan that cannot run (the type-checker
   * missing or crashing, a timeout) rejects, never resolves with an empty scan — with
   * ErrorScanUnavailable when the host can say why in words safe to show (the caller answers SPEC
   * §8's zero counts marked unavailable: unavailableErrorScan) — and so does a missing sandbox.
   */
  findErrors(sandboxId: string): Promise<ErrorScan>;
}

/**
 * Where a use case reports a failure it recovered from (a SPEC §8 fallback: an empty history,
 * zero error counts), so operators still see it. Never throws.
 */
export interface ProblemLog {
  warn(message: string): void;
}

/** The text of a thrown value, for a ProblemLog line. */
export function problemText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

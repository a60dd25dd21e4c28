/**
 * Domain errors are tagged plain objects: a literal `code` the API maps to an HTTP status,
 * a human `message` (the SPEC's wording where it has one) and any data the caller needs.
 */
export interface DomainError<C extends string = string> {
  readonly code: C;
  readonly message: string;
}

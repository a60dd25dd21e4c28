/**
 * A fast one-way digest (SHA-256, lower-case hex) for secrets that are random or short-lived:
 * refresh tokens and one-time codes are stored as digests, never as they were handed out.
 * Synchronous because it is pure computation.
 */
export interface SecretHasher {
  digest(value: string): string;
}

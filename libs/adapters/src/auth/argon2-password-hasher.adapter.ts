import * as argon2 from 'argon2';
import type { PasswordHasher } from '@kiln/domain';

export interface Argon2Options {
  /** KiB of memory per hash. */
  readonly memoryCost: number;
  readonly timeCost: number;
  readonly parallelism: number;
}

/**
 * OWASP's Password Storage Cheat Sheet baseline for argon2id: 19 MiB, 2 iterations, 1 lane
 * (≈ 20–40 ms per hash on one core here). Raise memoryCost when the servers can afford it.
 */
export const OWASP_ARGON2ID: Argon2Options = Object.freeze({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });

/** Passwords hashed with argon2id; the PHC string carries algorithm, parameters and salt. */
export class Argon2PasswordHasher implements PasswordHasher {
  constructor(private readonly options: Argon2Options = OWASP_ARGON2ID) {}

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id, ...this.options });
  }

  async verify(hash: string, password: string): Promise<boolean> {
    if (!hash.startsWith('$argon2')) return false;
    try {
      return await argon2.verify(hash, password);
    } catch {
      // A malformed stored hash is a mismatch, not a crash of the sign-in.
      return false;
    }
  }

  /** True when `hash` was made with other parameters (rehash it at the next sign-in). */
  needsRehash(hash: string): boolean {
    return argon2.needsRehash(hash, { memoryCost: this.options.memoryCost, timeCost: this.options.timeCost, parallelism: this.options.parallelism });
  }
}

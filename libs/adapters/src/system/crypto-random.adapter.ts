import { randomInt } from 'node:crypto';
import type { RandomSource } from '@kiln/domain';

/** Uniform integers from the operating system's CSPRNG (referral codes must not be guessable). */
export class CryptoRandom implements RandomSource {
  nextInt(maxExclusive: number): number {
    return randomInt(maxExclusive);
  }
}

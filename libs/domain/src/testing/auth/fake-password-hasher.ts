import type { PasswordHasher } from '../../auth/password-hasher.port.js';
import type { Pause } from '../in-memory-credit-ledger.js';
import { sha256Hex } from './pure-sha256.js';

/**
 * A fast stand-in for argon2 in domain tests: `fake-sha256$<salt>$<digest>`. Salted, so two
 * hashes of one password differ as real ones do; `hashes` counts calls (timing-parity tests).
 */
export class FakePasswordHasher implements PasswordHasher {
  private salt = 0;
  hashes = 0;
  verifications = 0;

  constructor(private readonly pause: Pause = () => Promise.resolve()) {}

  async hash(password: string): Promise<string> {
    await this.pause();
    this.hashes += 1;
    this.salt += 1;
    const salt = String(this.salt);
    return `fake-sha256$${salt}$${sha256Hex(`${salt}:${password}`)}`;
  }

  async verify(hash: string, password: string): Promise<boolean> {
    await this.pause();
    this.verifications += 1;
    const [scheme, salt, digest] = hash.split('$');
    return scheme === 'fake-sha256' && salt !== undefined && digest === sha256Hex(`${salt}:${password}`);
  }
}

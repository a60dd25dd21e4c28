import { createHash } from 'node:crypto';
import type { SecretHasher } from '@kiln/domain';

/** SHA-256 (lower-case hex) from node:crypto, for refresh tokens and one-time codes at rest. */
export class Sha256SecretHasher implements SecretHasher {
  digest(value: string): string {
    return createHash('sha256').update(value, 'utf8').digest('hex');
  }
}

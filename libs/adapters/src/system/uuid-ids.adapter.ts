import { randomUUID } from 'node:crypto';
import type { IdGenerator } from '@kiln/domain';

/** Random v4 UUIDs. */
export class UuidIds implements IdGenerator {
  next(): string {
    return randomUUID();
  }
}

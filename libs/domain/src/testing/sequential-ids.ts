import type { IdGenerator } from '../shared/ids.port.js';

/** Ids `prefix-1`, `prefix-2`, … in order. */
export class SequentialIds implements IdGenerator {
  private n = 0;
  constructor(private readonly prefix = 'id') {}
  next(): string {
    this.n += 1;
    return `${this.prefix}-${this.n}`;
  }
}

import type { KeyValueStorage } from '../app/ports';

/** KeyValueStorage in memory: the fake for tests (and a fallback without localStorage). */
export class InMemoryKeyValueStorage implements KeyValueStorage {
  private readonly values = new Map<string, string>();

  constructor(initial: Readonly<Record<string, string>> = {}) {
    for (const [key, value] of Object.entries(initial)) this.values.set(key, value);
  }

  get(key: string): string | null {
    return this.values.get(key) ?? null;
  }

  set(key: string, value: string): void {
    this.values.set(key, value);
  }

  remove(key: string): void {
    this.values.delete(key);
  }

  /** Everything stored, for assertions. */
  snapshot(): Record<string, string> {
    return Object.fromEntries(this.values);
  }
}

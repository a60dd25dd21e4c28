import type { KeyValueStorage } from '../app/ports';

/**
 * KeyValueStorage on window.localStorage. Storage can be missing or refuse writes (private
 * mode, quota, disabled cookies): reads then answer null and writes are dropped, never thrown.
 */
export class BrowserKeyValueStorage implements KeyValueStorage {
  constructor(private readonly storage: Storage | null = typeof localStorage === 'undefined' ? null : localStorage) {}

  get(key: string): string | null {
    try {
      return this.storage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  }

  set(key: string, value: string): void {
    try {
      this.storage?.setItem(key, value);
    } catch {
      // Full or disabled storage: the value is simply not kept.
    }
  }

  remove(key: string): void {
    try {
      this.storage?.removeItem(key);
    } catch {
      // as above
    }
  }
}

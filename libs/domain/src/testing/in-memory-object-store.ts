import { assertObjectKey } from '../storage/object-key.js';
import type { ObjectStore, StoredObject } from '../storage/object-store.port.js';

/** ObjectStore in memory; `down` makes every call reject as an unreachable store would. */
export class InMemoryObjectStore implements ObjectStore {
  private readonly objects = new Map<string, StoredObject>();
  down = false;

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    this.check(key);
    this.objects.set(key, { bytes: Uint8Array.from(bytes), contentType });
  }

  async get(key: string): Promise<StoredObject | null> {
    this.check(key);
    const found = this.objects.get(key);
    return found === undefined ? null : { bytes: Uint8Array.from(found.bytes), contentType: found.contentType };
  }

  async copy(from: string, to: string): Promise<boolean> {
    this.check(from);
    this.check(to);
    const found = this.objects.get(from);
    if (found === undefined) return false;
    this.objects.set(to, { bytes: Uint8Array.from(found.bytes), contentType: found.contentType });
    return true;
  }

  async delete(keys: readonly string[]): Promise<void> {
    keys.forEach((key) => this.check(key));
    keys.forEach((key) => this.objects.delete(key));
  }

  async deletePrefix(prefix: string): Promise<void> {
    this.check(prefix);
    for (const key of [...this.objects.keys()]) if (key.startsWith(`${prefix}/`)) this.objects.delete(key);
  }

  /** Every key held (tests). */
  keys(): string[] {
    return [...this.objects.keys()].sort();
  }

  private check(key: string): void {
    assertObjectKey(key);
    if (this.down) throw new Error('object store unavailable');
  }
}

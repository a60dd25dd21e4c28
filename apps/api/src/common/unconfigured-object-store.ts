import type { ObjectStore, StoredObject } from '@kiln/domain';

/**
 * The ObjectStore of an app built without one (tests that do not store files): every call
 * rejects, so a route that needs file bytes answers 503 rather than pretending to keep them.
 */
export class UnconfiguredObjectStore implements ObjectStore {
  put(): Promise<void> {
    return this.refuse();
  }
  get(): Promise<StoredObject | null> {
    return this.refuse();
  }
  copy(): Promise<boolean> {
    return this.refuse();
  }
  delete(): Promise<void> {
    return this.refuse();
  }
  deletePrefix(): Promise<void> {
    return this.refuse();
  }
  private refuse(): Promise<never> {
    return Promise.reject(new Error('No object store is configured'));
  }
}

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InvalidObjectKey } from '../../storage/object-key.js';
import type { ObjectStore } from '../../storage/object-store.port.js';

export interface ObjectStoreHarness {
  readonly store: ObjectStore;
  /** A store of the same kind that cannot be reached (a stopped server, a missing folder). */
  readonly unreachable: ObjectStore;
  close?(): Promise<void>;
}

// ASCII only: the domain has neither TextEncoder nor Buffer.
const text = (value: string): Uint8Array => Uint8Array.from(value, (c) => c.charCodeAt(0));
const read = (bytes: Uint8Array | undefined): string => String.fromCharCode(...(bytes ?? []));

/**
 * The ObjectStore contract (issue 18): bytes and content type round-trip, writes replace, copies
 * and deletes do what they say, a prefix delete stops at the segment boundary, keys Kiln did not
 * choose are refused before anything happens, and an unreachable store rejects.
 */
export function objectStoreContract(name: string, makeHarness: () => Promise<ObjectStoreHarness>): void {
  describe(`ObjectStore contract: ${name}`, () => {
    let h: ObjectStoreHarness;
    let n = 0;
    // Each test its own prefix: a store may be shared (an S3 bucket) across runs.
    const prefix = () => `contract${Date.now().toString(36)}${(n++).toString(36)}`;

    beforeAll(async () => {
      h = await makeHarness();
    }, 60_000);
    afterAll(async () => {
      await h?.close?.();
    }, 60_000);

    it('stores bytes with their content type and answers them back', async () => {
      const key = `${prefix()}/bucket/a`;
      await h.store.put(key, text('hello'), 'text/plain');
      const got = await h.store.get(key);
      expect(read(got?.bytes)).toBe('hello');
      expect(got?.contentType).toBe('text/plain');
    });

    it('keeps binary bytes exactly, including an empty object', async () => {
      const p = prefix();
      const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256);
      await h.store.put(`${p}/b/bin`, bytes, 'application/octet-stream');
      expect(Array.from((await h.store.get(`${p}/b/bin`))?.bytes ?? [])).toEqual(Array.from(bytes));
      await h.store.put(`${p}/b/empty`, new Uint8Array(0), 'text/plain');
      expect((await h.store.get(`${p}/b/empty`))?.bytes.length).toBe(0);
    });

    it('answers null for a key with no object', async () => {
      expect(await h.store.get(`${prefix()}/nothing/here`)).toBeNull();
    });

    it('replaces an object written again', async () => {
      const key = `${prefix()}/b/x`;
      await h.store.put(key, text('one'), 'text/plain');
      await h.store.put(key, text('two'), 'text/html');
      const got = await h.store.get(key);
      expect(read(got?.bytes)).toBe('two');
      expect(got?.contentType).toBe('text/html');
    });

    it('copies an object, leaving the source; copying nothing answers false', async () => {
      const p = prefix();
      await h.store.put(`${p}/b/src`, text('copy me'), 'text/plain');
      expect(await h.store.copy(`${p}/b/src`, `${p}/b/dst`)).toBe(true);
      expect(read((await h.store.get(`${p}/b/dst`))?.bytes)).toBe('copy me');
      expect(read((await h.store.get(`${p}/b/src`))?.bytes)).toBe('copy me');
      expect(await h.store.copy(`${p}/b/missing`, `${p}/b/other`)).toBe(false);
      expect(await h.store.get(`${p}/b/other`)).toBeNull();
    });

    it('deletes the objects named, and a missing one is no error', async () => {
      const p = prefix();
      await h.store.put(`${p}/b/1`, text('1'), 'text/plain');
      await h.store.put(`${p}/b/2`, text('2'), 'text/plain');
      await h.store.delete([`${p}/b/1`, `${p}/b/never`]);
      expect(await h.store.get(`${p}/b/1`)).toBeNull();
      expect(read((await h.store.get(`${p}/b/2`))?.bytes)).toBe('2');
    });

    it('deletes a prefix down to the segment boundary, no further', async () => {
      const p = prefix();
      await h.store.put(`${p}/bucket/a`, text('a'), 'text/plain');
      await h.store.put(`${p}/bucket/deep/b`, text('b'), 'text/plain');
      await h.store.put(`${p}/bucket2/c`, text('c'), 'text/plain');
      await h.store.deletePrefix(`${p}/bucket`);
      expect(await h.store.get(`${p}/bucket/a`)).toBeNull();
      expect(await h.store.get(`${p}/bucket/deep/b`)).toBeNull();
      expect(read((await h.store.get(`${p}/bucket2/c`))?.bytes)).toBe('c');
    });

    it.each(['../escape', 'a/../../b', '/etc/passwd', 'a\u0000b', 'A/B', 'a//b', 'ａ/b'])('refuses the key %j before touching anything', async (key) => {
      await expect(h.store.put(key, text('x'), 'text/plain')).rejects.toBeInstanceOf(InvalidObjectKey);
      await expect(h.store.get(key)).rejects.toBeInstanceOf(InvalidObjectKey);
      await expect(h.store.delete([key])).rejects.toBeInstanceOf(InvalidObjectKey);
      await expect(h.store.deletePrefix(key)).rejects.toBeInstanceOf(InvalidObjectKey);
    });

    it('rejects every call when the store cannot be reached', async () => {
      const key = `${prefix()}/b/k`;
      await expect(h.unreachable.put(key, text('x'), 'text/plain')).rejects.toBeDefined();
      await expect(h.unreachable.get(key)).rejects.toBeDefined();
    });
  });
}

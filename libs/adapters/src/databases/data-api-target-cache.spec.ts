import { describe, expect, it } from '@jest/globals';
import type { DataApiTarget, DataApiTargets } from '@kiln/domain';
import { DataApiTargetCache } from './data-api-target-cache.js';

const target = (password: string): DataApiTarget => ({
  ref: 'abcdefghij0123456789',
  ownerId: 'owner-1',
  connection: { host: 'db', port: 5432, database: 'kiln_app_abcdefghij0123456789', user: 'kiln_app_abcdefghij0123456789_authenticator', password },
  jwtSecret: 'secret',
  maxConnections: 9,
});

/** A store whose answer the test changes, counting its reads. */
function store(initial: DataApiTarget | null): DataApiTargets & { current: DataApiTarget | null; reads: number; fail: boolean } {
  const s = {
    current: initial,
    reads: 0,
    fail: false,
    async findByRef() {
      s.reads += 1;
      if (s.fail) throw new Error('Kiln database down');
      return s.current;
    },
  };
  return s;
}

describe('DataApiTargetCache', () => {
  const ref = 'abcdefghij0123456789';

  it('reads the store once per ttl, sharing one read between concurrent lookups', async () => {
    let now = 1000;
    const source = store(target('one'));
    const cache = new DataApiTargetCache(source, 1000, () => now);
    const [a, b] = await Promise.all([cache.findByRef(ref), cache.findByRef(ref)]);
    expect(a).toBe(b);
    now += 999;
    await cache.findByRef(ref);
    expect(source.reads).toBe(1);
    now += 1;
    source.current = target('two');
    expect((await cache.findByRef(ref))?.connection.password).toBe('two');
    expect(source.reads).toBe(2);
  });

  it('sees a detached database (null) after the ttl at the latest, and at once after forget', async () => {
    let now = 0;
    const source = store(target('one'));
    const cache = new DataApiTargetCache(source, 1000, () => now);
    expect(await cache.findByRef(ref)).not.toBeNull();
    source.current = null;
    // Within the ttl the cached answer stands (the documented bound) ...
    now = 500;
    expect(await cache.findByRef(ref)).not.toBeNull();
    // ... forget ends it at once ...
    cache.forget(ref);
    expect(await cache.findByRef(ref)).toBeNull();
    // ... and "no database" is cached like an answer, until a reprovision is forgotten too.
    source.current = target('rotated');
    expect(await cache.findByRef(ref)).toBeNull();
    cache.forget(ref);
    expect((await cache.findByRef(ref))?.connection.password).toBe('rotated');
  });

  it('keeps no failed read, and no answer when the clock goes back', async () => {
    let now = 5000;
    const source = store(target('one'));
    source.fail = true;
    const cache = new DataApiTargetCache(source, 1000, () => now);
    await expect(cache.findByRef(ref)).rejects.toThrow('Kiln database down');
    source.fail = false;
    expect(await cache.findByRef(ref)).not.toBeNull();
    expect(source.reads).toBe(2);
    now = 4000;
    await cache.findByRef(ref);
    expect(source.reads).toBe(3);
  });

  it('holds a bounded number of refs, dropping the oldest', async () => {
    const source = store(null);
    const cache = new DataApiTargetCache(source, 1000, () => 0);
    for (let i = 0; i <= 10_000; i++) await cache.findByRef(`r${i}`);
    expect(source.reads).toBe(10_001);
    await cache.findByRef('r10000');
    expect(source.reads).toBe(10_001);
    await cache.findByRef('r0');
    expect(source.reads).toBe(10_002);
  });
});

import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { PresenceTable } from './presence.js';

describe('PresenceTable', () => {
  it('answers Phoenix diffs for track, re-track and untrack, and the state', () => {
    const t = new PresenceTable();
    expect(t.track('i:s1:1', 'ana', { phx_ref: 'r1', online: 1 })).toEqual({ joins: { ana: { metas: [{ phx_ref: 'r1', online: 1 }] } }, leaves: {} });
    t.track('i:s2:1', 'ana', { phx_ref: 'r2' });
    expect(t.state()).toEqual({ ana: { metas: [{ phx_ref: 'r1', online: 1 }, { phx_ref: 'r2' }] } });
    expect(t.track('i:s1:1', 'ana', { phx_ref: 'r1', online: 1 })).toBeNull();
    expect(t.track('i:s1:1', 'ana', { phx_ref: 'r3', online: 2 })).toEqual({
      joins: { ana: { metas: [{ phx_ref: 'r3', online: 2 }] } },
      leaves: { ana: { metas: [{ phx_ref: 'r1', online: 1 }] } },
    });
    expect(t.untrack('i:s2:1')).toEqual({ joins: {}, leaves: { ana: { metas: [{ phx_ref: 'r2' }] } } });
    expect(t.untrack('i:s2:1')).toBeNull();
    expect(t.owners('i:s1')).toEqual([{ owner: 'i:s1:1', key: 'ana', meta: { phx_ref: 'r3', online: 2 } }]);
  });

  it('two tables applying the same operations in the same order agree (property)', () => {
    const op = fc.oneof(
      fc.record({ t: fc.constant('track' as const), owner: fc.constantFrom('a', 'b', 'c'), key: fc.constantFrom('x', 'y'), v: fc.nat(3) }),
      fc.record({ t: fc.constant('untrack' as const), owner: fc.constantFrom('a', 'b', 'c') }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        const [one, two] = [new PresenceTable(), new PresenceTable()];
        let count = 0;
        for (const o of ops) {
          for (const table of [one, two]) {
            if (o.t === 'track') table.track(o.owner, o.key, { phx_ref: `${o.owner}${o.v}` });
            else table.untrack(o.owner);
          }
          count = Object.values(one.state()).reduce((n, { metas }) => n + metas.length, 0);
        }
        expect(one.state()).toEqual(two.state());
        expect(count).toBe(one.size);
      }),
    );
  });
});

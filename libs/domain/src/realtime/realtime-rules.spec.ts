import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { utf8Length } from '../sandbox/sandbox-path.js';
import { DEFAULT_REALTIME_LIMITS, admitSocket, parseTopic } from './realtime-rules.js';

describe('realtime rules', () => {
  it('admits sockets up to the per-user cap, then up to the per-project cap, with clear reasons', () => {
    const limits = DEFAULT_REALTIME_LIMITS;
    expect(admitSocket({ ofUser: 99, ofProject: 400 }, limits)).toEqual({ ok: true, value: true });
    expect(admitSocket({ ofUser: 100, ofProject: 100 }, limits)).toEqual({
      ok: false,
      error: { code: 'REALTIME.TOO_MANY_SOCKETS', message: 'Too many realtime connections: at most 100 per user of a project' },
    });
    expect(admitSocket({ ofUser: 3, ofProject: 500 }, limits)).toMatchObject({ ok: false, error: { message: 'Too many realtime connections: at most 500 per project' } });
  });

  it('never admits past either cap (property)', () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.nat(1000), fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 900 }), (ofUser, ofProject, socketsPerUser, socketsPerProject) => {
        const admitted = admitSocket({ ofUser, ofProject }, { ...DEFAULT_REALTIME_LIMITS, socketsPerUser, socketsPerProject }).ok;
        expect(admitted).toBe(ofUser < socketsPerUser && ofProject < socketsPerProject);
      }),
    );
  });

  it('accepts realtime:<printable name> topics and refuses the rest', () => {
    expect(parseTopic('realtime:room-1')).toEqual({ ok: true, value: 'realtime:room-1' });
    expect(parseTopic('realtime:public:todos')).toMatchObject({ ok: true });
    for (const bad of ['room', 'realtime:', `realtime:${'a'.repeat(247)}`, 'realtime:é', 'realtime:a\nb', 42, null, 'phoenix']) {
      expect(parseTopic(bad)).toMatchObject({ ok: false, error: { code: 'REALTIME.INVALID_TOPIC' } });
    }
  });

  it('counts UTF-8 bytes (property; the oracle: percent-encoding, one %XX per byte)', () => {
    const bytes = (s: string) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, 'x').length;
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => expect(utf8Length(s)).toBe(bytes(s))));
  });
});

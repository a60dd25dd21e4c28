import { describe, expect, it } from '@jest/globals';
import { isolationAtStart } from './sandbox-isolation.js';

describe('isolationAtStart', () => {
  const missing = { isolated: false, reason: 'bubblewrap is not installed (apt-get install bubblewrap)' } as const;

  it('refuses to start in production without isolation', () => {
    const decision = isolationAtStart(missing, 'production');
    expect(decision.kind).toBe('refuse');
    expect(decision.message).toContain('Kiln will not start');
    expect(decision.message).toContain('bubblewrap is not installed');
  });

  it('starts in development with a loud warning and a warning for the builder', () => {
    for (const env of ['development', 'test'] as const) {
      const decision = isolationAtStart(missing, env);
      expect(decision.kind).toBe('warn');
      if (decision.kind !== 'warn') return;
      expect(decision.message).toContain('PROJECT CODE IS NOT ISOLATED');
      expect(decision.isolation).toEqual({ isolated: false, reason: expect.stringContaining('bubblewrap is not installed') });
    }
  });

  it('starts quietly when isolated, in every mode', () => {
    for (const env of ['development', 'test', 'production'] as const) {
      const decision = isolationAtStart({ isolated: true, limits: 'cgroup v1: pids, memory, cpu' }, env);
      expect(decision).toMatchObject({ kind: 'ok', isolation: { isolated: true } });
      expect(decision.message).toContain('cgroup v1');
    }
  });
});

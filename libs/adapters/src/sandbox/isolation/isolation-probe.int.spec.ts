import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { BubblewrapJail } from './bubblewrap-jail.js';
import { probeIsolation } from './isolation-probe.js';

const BWRAP = '/usr/bin/bwrap';

describe('probeIsolation', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('says why without bubblewrap', async () => {
    expect(await probeIsolation(null)).toEqual({ isolated: false, reason: expect.stringContaining('bubblewrap is not installed') });
  });

  it('is isolated with bubblewrap on this machine (CI installs it: never skipped)', async () => {
    expect(existsSync(BWRAP)).toBe(true);
    const runtimeDir = await mkdtemp(path.join(tmpdir(), 'kiln-jail-'));
    dirs.push(runtimeDir);
    expect(await probeIsolation(new BubblewrapJail({ bwrapPath: BWRAP, runtimeDir }))).toEqual({ isolated: true });
  });

  it('says why when bubblewrap cannot make the sandbox', async () => {
    const runtimeDir = await mkdtemp(path.join(tmpdir(), 'kiln-jail-'));
    dirs.push(runtimeDir);
    const broken = await probeIsolation(new BubblewrapJail({ bwrapPath: '/bin/false', runtimeDir }));
    expect(broken).toMatchObject({ isolated: false, reason: expect.stringContaining('cannot make an unprivileged sandbox') });
  });
});

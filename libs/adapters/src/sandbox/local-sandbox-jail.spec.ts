import { describe, expect, it } from '@jest/globals';
import { BubblewrapJail } from './isolation/bubblewrap-jail.js';
import { CgroupLimits } from './isolation/cgroup-limits.js';
import { sandboxLimits } from './isolation/sandbox-limits.js';
import { LocalSandboxJail } from './local-sandbox-jail.js';

const limits = sandboxLimits();
const jailWith = (jail: BubblewrapJail | null, installJail?: BubblewrapJail | null) =>
  new LocalSandboxJail({
    jail,
    ...(installJail === undefined ? {} : { installJail }),
    limits,
    cgroups: Promise.resolve(CgroupLimits.none(limits)),
    runtimeDir: '/tmp/kiln-jail-spec',
    dependencyCacheDir: async () => undefined,
  });
const bwrap = new BubblewrapJail({ bwrapPath: '/usr/bin/bwrap', runtimeDir: '/tmp/kiln-jail-spec/etc' });

describe('LocalSandboxJail', () => {
  it('runs project processes as they are where they run elsewhere (a container), yet keeps npm installs in bubblewrap', async () => {
    const containerHost = jailWith(null, bwrap);
    expect(await containerHost.command('p', '/p', '/p', ['node', 'x.js'])).toEqual(['node', 'x.js']);
    expect(containerHost.npmIsolation(async () => '/cache')).toBeInstanceOf(Function);
  });

  it('has no isolation for installs without bubblewrap, and uses the project jail by default', () => {
    expect(jailWith(null).npmIsolation(async () => '/cache')).toBeUndefined();
    expect(jailWith(null, null).npmIsolation(async () => '/cache')).toBeUndefined();
    expect(jailWith(bwrap).npmIsolation(async () => '/cache')).toBeInstanceOf(Function);
  });
});

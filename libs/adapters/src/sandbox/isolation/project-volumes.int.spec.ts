import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LocalSandboxHost } from '../local-sandbox-host.adapter.js';
import { tempSandboxRoot } from '../testing/sandbox-test-dirs.js';
import { waitFor } from '../testing/wait-for.js';
import { ProjectVolumes } from './project-volumes.js';

const MiB = 1024 * 1024;

/** The disk limit as the kernel enforces it: one ext4 volume per project (this machine kind has loop devices and root). */
describe('LocalSandboxHost with per-project volumes', () => {
  let base: string;
  let close: () => Promise<void>;
  let host: LocalSandboxHost;
  const root = () => path.join(base, 'sandboxes');

  beforeAll(async () => {
    ({ root: base, close } = await tempSandboxRoot('kiln-volumes-'));
    // CI's machines allow loop mounts as root: this must not silently fall back.
    expect(await LocalSandboxHost.diskQuotaFor(root())).toBe('volume');
    host = new LocalSandboxHost({ root: root(), cacheDir: null, diskQuota: 'volume', limits: { diskBytes: 32 * MiB } });
  }, 60_000);
  afterAll(async () => {
    await host.stopAll();
    await close();
  });

  it('makes each project its own volume, so writes past the limit fail whoever writes', async () => {
    await host.ensure('vol-a');
    expect(await readdir(path.join(root(), 'vol-a'))).not.toContain('lost+found');
    // A command: many files, each under the limit, together over it.
    const result = await host.runCommand('vol-a', 'for i in 1 2 3 4 5 6; do head -c 8000000 /dev/zero > fill$i || { echo refused at $i; break; }; done', { timeoutSeconds: 20 });
    expect(result.stdout).toMatch(/refused at [3-5]/);
    expect(result.stderr).toMatch(/No space left on device/);
    const df = await host.runCommand('vol-a', 'du -sk .');
    expect(Number(df.stdout.split(/\s/)[0]) * 1024).toBeLessThanOrEqual(32 * MiB);
    // The file API: refused with the domain's disk-limit error (413), nothing half-written.
    await expect(host.writeFile('vol-a', 'more.txt', 'x'.repeat(10 * MiB))).rejects.toMatchObject({ code: 'SANDBOX.DISK_LIMIT' });
    expect(existsSync(path.join(root(), 'vol-a', 'more.txt'))).toBe(false);
    // Removing files makes room again.
    await host.runCommand('vol-a', 'rm -f fill*');
    await host.writeFile('vol-a', 'more.txt', 'x'.repeat(10 * MiB));
  }, 60_000);

  it('keeps the files across a restart (stopAll unmounts, the next use mounts again)', async () => {
    await host.ensure('vol-b');
    await host.writeFile('vol-b', 'kept.txt', 'still here\n');
    await host.stopAll();
    expect(await readdir(path.join(root(), 'vol-b'))).toEqual([]); // an empty mount point
    const again = new LocalSandboxHost({ root: root(), cacheDir: null, diskQuota: 'volume', limits: { diskBytes: 32 * MiB } });
    try {
      expect(await again.readFile('vol-b', 'kept.txt')).toBe('still here\n');
    } finally {
      await again.stopAll();
    }
  }, 60_000);

  it('moves a folder made without a volume into one on first use', async () => {
    const dir = path.join(root(), 'vol-old');
    await mkdir(path.join(dir, 'src'), { recursive: true });
    await writeFile(path.join(dir, 'src', 'App.tsx'), 'export const App = () => null;\n');
    expect(await host.readFile('vol-old', 'src/App.tsx')).toBe('export const App = () => null;\n');
    expect((await readFile('/proc/self/mountinfo', 'utf8')).includes(` ${dir} `)).toBe(true);
    await expect(host.writeFile('vol-old', 'big.bin', 'y'.repeat(40 * MiB))).rejects.toMatchObject({ code: 'SANDBOX.DISK_LIMIT' });
  }, 60_000);

  it('cleanup removes the volume with the project', async () => {
    await host.ensure('vol-c');
    await host.cleanup('vol-c');
    expect(existsSync(path.join(root(), 'vol-c'))).toBe(false);
    expect(existsSync(path.join(base, 'sandbox-volumes', 'vol-c.img'))).toBe(false);
    expect((await readFile('/proc/self/mountinfo', 'utf8')).includes(path.join(root(), 'vol-c'))).toBe(false);
  }, 60_000);

  it('keeps a spare image ready: the next new volume is the spare, renamed (no mkfs on the way)', async () => {
    const volumes = new ProjectVolumes({ volumesDir: path.join(base, 'spare-volumes'), sizeBytes: 32 * MiB });
    const first = path.join(base, 'spare-a');
    const second = path.join(base, 'spare-b');
    try {
      await volumes.ensureMounted(first);
      const spare = path.join(base, 'spare-volumes', `.spare-${process.pid}.img`);
      await waitFor('the spare image', () => (existsSync(spare) ? true : undefined));
      const spareInode = (await stat(spare)).ino;
      await volumes.ensureMounted(second);
      expect(existsSync(spare)).toBe(false);
      expect((await stat(path.join(base, 'spare-volumes', 'spare-b.img'))).ino).toBe(spareInode);
      expect(await readdir(second)).toEqual([]); // no lost+found
      await writeFile(path.join(second, 'x.txt'), 'on the spare\n');
    } finally {
      await volumes.unmountAll();
    }
    // unmountAll leaves no spare behind (the next instance makes its own).
    expect((await readdir(path.join(base, 'spare-volumes'))).filter((n) => n.startsWith('.spare-'))).toEqual([]);
  }, 60_000);

  it('moves a mounted volume to a new folder, its files and image with it', async () => {
    const volumes = new ProjectVolumes({ volumesDir: path.join(base, 'move-volumes'), sizeBytes: 32 * MiB, keepSpare: false });
    const from = path.join(base, 'move-from');
    const to = path.join(base, 'move-to');
    try {
      await volumes.ensureMounted(from);
      await writeFile(path.join(from, 'kept.txt'), 'moved\n');
      await volumes.moveTo(from, to);
      expect(existsSync(from)).toBe(false);
      expect(await readFile(path.join(to, 'kept.txt'), 'utf8')).toBe('moved\n');
      const mounts = await readFile('/proc/self/mountinfo', 'utf8');
      expect(mounts.includes(` ${to} `)).toBe(true);
      expect(mounts.includes(` ${from} `)).toBe(false);
      expect(await readdir(path.join(base, 'move-volumes'))).toEqual(['move-to.img']);
      // Still the volume: its limit holds at the new place.
      await expect(writeFile(path.join(to, 'big.bin'), Buffer.alloc(40 * MiB))).rejects.toMatchObject({ code: 'ENOSPC' });
      await expect(volumes.moveTo(from, path.join(base, 'move-again'))).rejects.toThrow(/No volume/);
    } finally {
      await volumes.unmountAll();
    }
  }, 60_000);
});

import { mkdir, mkdtemp, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { removeReadOnlyTree } from './hosting-paths.js';
import { copyReleaseOutput, ReleaseCopyRefused } from './release-copy.js';

/** Every path below `dir`, folders with a trailing slash. */
async function listing(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const p = rel === '' ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) out.push(`${p}/`, ...(await listing(dir, p)));
    else out.push(e.isFile() ? p : `${p} (not a file)`);
  }
  return out.sort();
}

describe('copyReleaseOutput against a project racing it', () => {
  let base: string;
  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'kiln-release-copy-'));
  });
  afterAll(async () => {
    await removeReadOnlyTree(base);
  });

  it('never follows a folder swapped for a link to /etc mid-copy', async () => {
    const project = path.join(base, 'project');
    const dist = path.join(project, 'dist');
    await mkdir(path.join(dist, 'sub'), { recursive: true });
    await writeFile(path.join(dist, 'index.html'), '<p>app</p>');
    for (let i = 0; i < 50; i++) await writeFile(path.join(dist, 'sub', `f${i}.txt`), `file ${i}`);
    // The racer: `sub` is a folder, then a link to /etc, then a folder again, as fast as it can.
    let racing = true;
    const racer = (async () => {
      let n = 0;
      while (racing) {
        const aside = path.join(project, `aside-${n++}`);
        await rename(path.join(dist, 'sub'), aside).catch(() => undefined);
        await symlink('/etc', path.join(dist, 'sub')).catch(() => undefined);
        await new Promise((r) => setImmediate(r));
        await rm(path.join(dist, 'sub'), { force: true }).catch(() => undefined);
        await rename(aside, path.join(dist, 'sub')).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 1)); // a folder for a moment too
      }
    })();
    const outcomes: string[] = [];
    for (let i = 0; i < 40; i++) {
      const target = path.join(base, `copy-${i}`);
      const result = await copyReleaseOutput(project, 'dist', target);
      const files = await listing(target);
      // Whatever moment it saw: the project's files or nothing of `sub`, never a file of /etc.
      expect(files.filter((f) => !/^(index\.html|sub\/|sub\/f\d+\.txt)$/.test(f))).toEqual([]);
      outcomes.push(files.includes('sub/') ? 'folder' : result.skipped.includes('sub') ? 'link' : 'gone');
    }
    racing = false;
    await racer;
    process.stdout.write(`copies under the race: ${JSON.stringify(outcomes.reduce<Record<string, number>>((a, o) => ({ ...a, [o]: (a[o] ?? 0) + 1 }), {}))}\n`);
  }, 60_000);

  it('refuses a link as the output folder, and a file growing past the limit', async () => {
    const project = path.join(base, 'linked');
    await mkdir(project, { recursive: true });
    await symlink('/etc', path.join(project, 'dist'));
    await expect(copyReleaseOutput(project, 'dist', path.join(base, 'never'))).rejects.toBeInstanceOf(ReleaseCopyRefused);
    const big = path.join(base, 'big');
    await mkdir(path.join(big, 'dist'), { recursive: true });
    await writeFile(path.join(big, 'dist', 'a.bin'), Buffer.alloc(600));
    await writeFile(path.join(big, 'dist', 'b.bin'), Buffer.alloc(600));
    await expect(copyReleaseOutput(big, 'dist', path.join(base, 'big-copy'), { maxBytes: 1000, maxFiles: 10, maxDepth: 4 })).rejects.toThrow('larger than');
    await mkdir(path.join(big, 'dist', 'a', 'b', 'c'), { recursive: true });
    await expect(copyReleaseOutput(big, 'dist', path.join(base, 'deep-copy'), { maxBytes: 1e9, maxFiles: 10, maxDepth: 2 })).rejects.toThrow('deeper than');
    await expect(copyReleaseOutput(big, '../big', path.join(base, 'up'))).rejects.toThrow();
  });
});

import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import {
  MAX_LINK_HOPS,
  MAX_LISTING_CONTENT_BYTES,
  MAX_LISTING_ENTRIES,
  MAX_READ_FILE_BYTES,
  MAX_TREE_DEPTH,
  MAX_TREE_ENTRIES,
  TREE_IGNORE_LIST,
} from '@kiln/domain';
import { fdChild } from './fd-paths.js';
import { ProjectFiles, projectSize } from './project-files.js';
import { ProjectWalker } from './project-walker.js';

/** What a promise rejected with: the coded refusal's code, else the errno, else 'resolved'. */
async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (e) {
    const error = e as { code?: string; error?: { cap?: string } };
    return error.error?.cap === undefined ? String(error.code) : `${error.code}:${error.error.cap}`;
  }
}

const openFds = () => readdirSync('/proc/self/fd').length;

describe('ProjectFiles (real folders)', () => {
  let base: string;
  let project: string;
  let outside: string;
  let files: ProjectFiles;
  let n = 0;

  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'kiln-project-files-')));
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });
  beforeEach(async () => {
    project = path.join(base, `p${++n}`);
    outside = path.join(base, `outside${n}`);
    await mkdir(path.join(project, 'src', 'deep'), { recursive: true });
    await mkdir(path.join(outside, 'sub'), { recursive: true });
    await writeFile(path.join(project, 'src', 'App.tsx'), 'app');
    await writeFile(path.join(outside, 'secret.txt'), 'OUTSIDE');
    await writeFile(path.join(outside, 'sub', 'secret.txt'), 'OUTSIDE');
    files = new ProjectFiles(project);
  });
  afterEach(async () => {
    // Nothing outside was ever changed.
    expect((await readdir(outside, { recursive: true })).sort()).toEqual(['secret.txt', 'sub', path.join('sub', 'secret.txt')]);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('OUTSIDE');
  });

  describe('/proc/self/fd/<dirfd>/<name> is openat(dirfd, name)', () => {
    it('keeps walking the folder it opened after that folder is renamed and a link out takes its name', async () => {
      await writeFile(path.join(project, 'src', 'deep', 'here.txt'), 'inside');
      const root = await import('node:fs/promises').then((fs) => fs.open(project, 'r'));
      try {
        const walker = new ProjectWalker(root.fd, project, 'src/deep');
        const folder = await walker.openFolder(['src', 'deep']);
        try {
          await rename(path.join(project, 'src'), path.join(project, 'moved'));
          await symlink(outside, path.join(project, 'src'));
          await writeFile(path.join(outside, 'here.txt'), 'OUTSIDE');
          expect(await readFile(fdChild(folder.fd, 'here.txt'), 'utf8')).toBe('inside');
          await writeFile(fdChild(folder.fd, 'made.txt'), 'x');
          expect(await readFile(path.join(project, 'moved', 'deep', 'made.txt'), 'utf8')).toBe('x');
        } finally {
          await walker.release(folder);
          await rm(path.join(outside, 'here.txt'));
        }
      } finally {
        await root.close();
      }
      // The path walked again now meets the link and refuses it.
      expect(await outcome(files.readFile('src/deep/here.txt'))).toBe('SANDBOX.PATH_OUTSIDE');
    });

    it('refuses names that are not one entry', () => {
      for (const name of ['', '.', '..', 'a/b', 'a\0b']) expect(() => fdChild(3, name)).toThrow(/single file name/);
    });
  });

  describe('links', () => {
    it('never goes through a link out, at any depth and in any operation', async () => {
      await symlink(outside, path.join(project, 'out'));
      await symlink(outside, path.join(project, 'src', 'out'));
      await symlink(path.join(outside, 'sub'), path.join(project, 'src', 'deep', 'out'));
      await symlink('../../..', path.join(project, 'src', 'deep', 'up')); // the folder above the project
      await symlink(path.join(outside, 'secret.txt'), path.join(project, 'src', 'secret-link'));
      await symlink(path.join(outside, 'missing'), path.join(project, 'dangling-out'));
      for (const dir of ['out', 'src/out', 'src/deep/out', `src/deep/up/outside${n}`]) {
        expect({
          dir,
          read: await outcome(files.readFile(`${dir}/secret.txt`)),
          write: await outcome(files.writeFile(`${dir}/new.txt`, 'x')),
          overwrite: await outcome(files.writeFile(`${dir}/secret.txt`, 'x')),
          mkdir: await outcome(files.createDirectory(`${dir}/made`)),
          list: await outcome(files.readDirectory(dir, { includeContents: true })),
          tree: await outcome(files.getTree(dir)),
          remove: await outcome(files.deleteFile(`${dir}/secret.txt`)),
        }).toEqual({
          dir,
          read: 'SANDBOX.PATH_OUTSIDE',
          write: 'SANDBOX.PATH_OUTSIDE',
          overwrite: 'SANDBOX.PATH_OUTSIDE',
          mkdir: 'SANDBOX.PATH_OUTSIDE',
          list: 'SANDBOX.PATH_OUTSIDE',
          tree: 'SANDBOX.PATH_OUTSIDE',
          remove: 'SANDBOX.PATH_OUTSIDE',
        });
      }
      expect(await outcome(files.readFile('src/secret-link'))).toBe('SANDBOX.PATH_OUTSIDE');
      expect(await outcome(files.writeFile('src/secret-link', 'x'))).toBe('SANDBOX.PATH_OUTSIDE');
      expect(await outcome(files.writeFile('dangling-out', 'x'))).toBe('SANDBOX.PATH_OUTSIDE');
      expect(await outcome(files.writeFile('dangling-out/deeper/x', 'x'))).toBe('SANDBOX.PATH_OUTSIDE');

      // Listed as files without contents, never followed; removing a link removes the link.
      expect(await files.readDirectory('src', { includeContents: true })).toEqual([
        { name: 'deep', type: 'directory' },
        { name: 'App.tsx', type: 'file', content: 'app' },
        { name: 'out', type: 'file' },
        { name: 'secret-link', type: 'file' },
      ]);
      const tree = await files.getTree('.', []);
      expect(tree.find((e) => e.name === 'out')).toEqual({ name: 'out', type: 'file', path: 'out' });
      await files.deleteFile('out');
      await files.deleteFile('src/secret-link');
      await files.deleteFile('src'); // with links to outside folders inside it
      expect(await readdir(project)).toEqual(['dangling-out']);
    });

    it('follows links that stay inside the project: relative, absolute, chained, dangling ones made by a write', async () => {
      await symlink('src/App.tsx', path.join(project, 'app-link'));
      await symlink(path.join(project, 'src'), path.join(project, 'src-abs'));
      await symlink('../src-abs/deep', path.join(project, 'src', 'chain'));
      await symlink('..', path.join(project, 'src', 'parent'));
      await symlink('made/later.txt', path.join(project, 'later-link'));
      expect(await files.readFile('app-link')).toBe('app');
      expect(await files.readFile('src-abs/App.tsx')).toBe('app');
      expect(await files.readFile('src/parent/src/App.tsx')).toBe('app');
      await files.writeFile('src/chain/x.ts', 'x');
      expect(await readFile(path.join(project, 'src', 'deep', 'x.ts'), 'utf8')).toBe('x');
      await files.writeFile('app-link', 'through the link');
      expect(await readFile(path.join(project, 'src', 'App.tsx'), 'utf8')).toBe('through the link');
      await files.writeFile('later-link', 'made');
      expect(await readFile(path.join(project, 'made', 'later.txt'), 'utf8')).toBe('made');
      expect(await files.getTree('src/chain')).toEqual([{ name: 'x.ts', type: 'file', path: 'src/deep/x.ts' }]);
    });

    it('creates as many missing folders as a path names', async () => {
      const deep = `${Array.from({ length: 60 }, (_, i) => `level${i}`).join('/')}/file.txt`;
      await files.writeFile(deep, 'deep');
      expect(await files.readFile(deep)).toBe('deep');
      await files.createDirectory(`${deep.replace('/file.txt', '')}/${'x/'.repeat(40)}y`);
      await files.deleteFile('level0');
      expect(readdirSync(project)).toEqual(['src']);
    });

    it('answers a loop, or more links than Linux follows, with SANDBOX.LINK_LOOP', async () => {
      await symlink('b', path.join(project, 'a'));
      await symlink('a', path.join(project, 'b'));
      await symlink('self', path.join(project, 'self'));
      await symlink('.', path.join(project, 'here'));
      for (const p of ['a', 'b/x', 'self', 'self/x']) {
        expect([p, await outcome(files.readFile(p)), await outcome(files.writeFile(p, 'x')), await outcome(files.readDirectory(p))]).toEqual([
          p,
          'SANDBOX.LINK_LOOP',
          'SANDBOX.LINK_LOOP',
          'SANDBOX.LINK_LOOP',
        ]);
      }
      // 'here/here/…' is no loop: each 'here' is one hop, up to MAX_LINK_HOPS.
      expect(await files.readFile(`${'here/'.repeat(MAX_LINK_HOPS)}src/App.tsx`)).toBe('app');
      expect(await outcome(files.readFile(`${'here/'.repeat(MAX_LINK_HOPS + 1)}src/App.tsx`))).toBe('SANDBOX.LINK_LOOP');
    });

    it('answers a name too long for the system (from a link) with SANDBOX.PATH_TOO_LONG', async () => {
      await symlink(`${'n'.repeat(300)}`, path.join(project, 'long-link'));
      expect(await outcome(files.readFile('long-link'))).toBe('SANDBOX.PATH_TOO_LONG');
      expect(await outcome(files.writeFile('long-link/x', 'x'))).toBe('SANDBOX.PATH_TOO_LONG');
      expect(await outcome(files.readFile(`src/${'n'.repeat(256)}`))).toBe('SANDBOX.PATH_TOO_LONG');
    });
  });

  describe('file kinds and errors', () => {
    it("keeps the errno codes the API maps, and never opens a FIFO's other end", async () => {
      writeFileSync(path.join(project, 'a-file'), 'x');
      execFileSync('mkfifo', [path.join(project, 'pipe')]);
      expect(await outcome(files.readFile('src'))).toBe('EISDIR');
      expect(await outcome(files.readFile('.'))).toBe('EISDIR');
      expect(await outcome(files.writeFile('src', 'x'))).toBe('EISDIR');
      expect(await outcome(files.readFile('nope'))).toBe('ENOENT');
      expect(await outcome(files.deleteFile('nope'))).toBe('ENOENT');
      expect(await outcome(files.readDirectory('nope'))).toBe('ENOENT');
      expect(await outcome(files.readDirectory('a-file'))).toBe('ENOTDIR');
      expect(await outcome(files.getTree('a-file'))).toBe('ENOTDIR');
      expect(await outcome(files.createDirectory('a-file'))).toBe('EEXIST');
      expect(await outcome(files.createDirectory('a-file/sub'))).toBe('ENOTDIR');
      expect(await outcome(files.writeFile('a-file/sub/x', 'x'))).toBe('ENOTDIR');
      expect(await outcome(files.readFile('pipe'))).toBe('EFTYPE');
      expect(await outcome(files.writeFile('pipe', 'x'))).toBe('EFTYPE');
      expect(await outcome(files.deleteFile('.'))).toBe('undefined'); // a plain Error: the API refuses the root first
      expect(await files.readDirectory('.', { includeContents: true })).toContainEqual({ name: 'pipe', type: 'file' });
      await files.createDirectory('src'); // an existing folder is fine
      await files.deleteFile('pipe');
      expect(readdirSync(project).sort()).toEqual(['a-file', 'src']);
    });
  });

  describe('caps', () => {
    it('refuses a file over MAX_READ_FILE_BYTES before reading it', async () => {
      writeFileSync(path.join(project, 'big.bin'), Buffer.alloc(MAX_READ_FILE_BYTES + 1));
      expect(await outcome(files.readFile('big.bin'))).toBe('SANDBOX.TOO_LARGE:file-bytes');
      writeFileSync(path.join(project, 'fits.bin'), Buffer.alloc(MAX_READ_FILE_BYTES));
      expect((await files.readFile('fits.bin')).length).toBe(MAX_READ_FILE_BYTES);
    });

    it('caps read-directory: contents in bytes, entries with and without contents', async () => {
      const half = Buffer.alloc(MAX_LISTING_CONTENT_BYTES / 2, 'a');
      writeFileSync(path.join(project, 'src', 'deep', 'a'), half);
      writeFileSync(path.join(project, 'src', 'deep', 'b'), half);
      expect((await files.readDirectory('src/deep', { includeContents: true })).map((e) => e.content?.length)).toEqual([half.length, half.length]);
      writeFileSync(path.join(project, 'src', 'deep', 'c'), 'one byte too many');
      expect(await outcome(files.readDirectory('src/deep', { includeContents: true }))).toBe('SANDBOX.TOO_LARGE:listing-bytes');
      expect(await files.readDirectory('src/deep')).toHaveLength(3);

      const wide = path.join(project, 'wide');
      mkdirSync(wide);
      for (let i = 0; i <= MAX_LISTING_ENTRIES; i++) writeFileSync(path.join(wide, `f${i}`), '');
      expect(await outcome(files.readDirectory('wide'))).toBe('SANDBOX.TOO_LARGE:listing-entries');
      expect(await outcome(files.readDirectory('wide', { includeContents: true }))).toBe('SANDBOX.TOO_LARGE:listing-entries');
      expect(await files.readDirectory('wide', { ignorePatterns: ['f1'] })).toHaveLength(MAX_LISTING_ENTRIES);
    }, 120_000);

    it('caps get-tree in entries and depth, with a 413 rather than a partial tree', async () => {
      for (let d = 0; d < 20; d++) {
        const dir = path.join(project, 'many', `d${d}`);
        mkdirSync(dir, { recursive: true });
        for (let i = 0; i < MAX_TREE_ENTRIES / 20; i++) writeFileSync(path.join(dir, `f${i}`), '');
      }
      // 20 folders + 20,000 files + 'many' + 'src', 'src/deep', 'src/App.tsx'
      expect(await outcome(files.getTree('.'))).toBe('SANDBOX.TOO_LARGE:tree-entries');
      expect(await files.getTree('many/d3')).toHaveLength(MAX_TREE_ENTRIES / 20);
      await rm(path.join(project, 'many'), { recursive: true });

      mkdirSync(path.join(project, ...Array<string>(MAX_TREE_DEPTH + 1).fill('d')), { recursive: true });
      expect(await outcome(files.getTree('.'))).toBe('SANDBOX.TOO_LARGE:tree-depth');
      expect(await outcome(files.getTree('d'))).toBe('resolved'); // 256 levels below it
      await files.deleteFile('d/d'); // removal walks as deep as the cap too
      expect(await files.getTree('.', TREE_IGNORE_LIST)).toContainEqual({ name: 'd', type: 'directory', path: 'd', children: [] });
    }, 120_000);
  });

  describe('disk size and limit', () => {
    it("counts the project's own bytes, not what its links point to", async () => {
      writeFileSync(path.join(outside, 'huge'), Buffer.alloc(5_000_000));
      await symlink(outside, path.join(project, 'node_modules'));
      const before = await projectSize(project);
      expect(before).toBeLessThan(100_000);
      writeFileSync(path.join(project, 'src', 'deep', 'k.bin'), Buffer.alloc(50_000));
      expect(await projectSize(project)).toBe(before + 50_000);
      await rm(path.join(outside, 'huge'));
    });

    it('refuses a write that would take the project over maxProjectBytes (SANDBOX.DISK_LIMIT), counting the file it replaces', async () => {
      writeFileSync(path.join(project, 'src', 'big.txt'), Buffer.alloc(10_000, 'b'));
      const size = await projectSize(project);
      const limit = size + 1_000;
      await files.writeFile('src/new.txt', 'x'.repeat(900), { maxProjectBytes: limit });
      expect(await outcome(files.writeFile('src/more.txt', 'x'.repeat(200), { maxProjectBytes: limit }))).toBe('SANDBOX.DISK_LIMIT');
      expect(readdirSync(path.join(project, 'src'))).not.toContain('more.txt');
      // Replacing big.txt with something smaller fits; growing it does not.
      await files.writeFile('src/big.txt', 'small', { maxProjectBytes: limit });
      expect(await outcome(files.writeFile('src/big.txt', 'y'.repeat(12_000), { maxProjectBytes: limit }))).toBe('SANDBOX.DISK_LIMIT');
      expect(await readFile(path.join(project, 'src', 'big.txt'), 'utf8')).toBe('small');
      await files.writeFile('src/anything.txt', 'y'.repeat(12_000)); // no limit given: none applies
    });
  });

  it('closes every descriptor it opens, whether operations succeed or fail', async () => {
    await symlink(outside, path.join(project, 'out'));
    await symlink('loop', path.join(project, 'loop'));
    const before = openFds();
    for (let i = 0; i < 100; i++) {
      await files.writeFile(`src/deep/f${i % 7}/x.ts`, `${i}`);
      await files.readFile(`src/deep/f${i % 7}/x.ts`);
      await files.readDirectory('src/deep', { includeContents: true });
      await files.getTree('.');
      await files.createDirectory(`made/${i % 5}`);
      await outcome(files.readFile('out/secret.txt'));
      await outcome(files.writeFile('loop/x', 'x'));
      await outcome(files.readFile('nope/x'));
      await outcome(files.readFile('src'));
      await projectSize(project);
      if (i % 10 === 9) await files.deleteFile('made');
    }
    expect(openFds()).toBe(before);
  }, 120_000);
});

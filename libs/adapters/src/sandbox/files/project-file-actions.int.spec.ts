import { lstat, mkdir, mkdtemp, readFile, readlink, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { ProjectFileBytes } from '@kiln/domain';
import { ProjectFiles } from './project-files.js';

async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (e) {
    return String((e as { code?: string }).code);
  }
}

async function exported(files: ProjectFiles, exclude: readonly string[] = ['node_modules'], maxBytes = 1 << 20): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const file of files.exportFiles({ exclude, maxBytes }) as AsyncIterable<ProjectFileBytes>) out.set(file.path, Buffer.from(file.bytes).toString('utf8'));
  return out;
}

describe('ProjectFiles file-tree actions (real folders, hostile links)', () => {
  let base: string;
  let project: string;
  let outside: string;
  let files: ProjectFiles;
  let n = 0;

  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'kiln-file-actions-')));
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });
  beforeEach(async () => {
    project = path.join(base, `p${++n}`);
    outside = path.join(base, `outside${n}`);
    await mkdir(path.join(project, 'src'), { recursive: true });
    await mkdir(outside, { recursive: true });
    await writeFile(path.join(project, 'src', 'App.tsx'), 'app');
    await writeFile(path.join(outside, 'secret.txt'), 'OUTSIDE');
    files = new ProjectFiles(project);
  });

  it('moves a link as a link, never what it points to', async () => {
    await symlink(path.join(outside, 'secret.txt'), path.join(project, 'src', 'leak'));
    await files.movePath('src/leak', 'moved-leak');
    expect((await lstat(path.join(project, 'moved-leak'))).isSymbolicLink()).toBe(true);
    expect(await readlink(path.join(project, 'moved-leak'))).toBe(path.join(outside, 'secret.txt'));
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('OUTSIDE');
  });

  it('never moves through a link out of the project, on either side', async () => {
    await symlink(outside, path.join(project, 'out'));
    expect(await outcome(files.movePath('out/secret.txt', 'stolen.txt'))).toBe('SANDBOX.PATH_OUTSIDE');
    expect(await outcome(files.movePath('src/App.tsx', 'out/App.tsx'))).toBe('SANDBOX.PATH_OUTSIDE');
    expect(await readFile(path.join(project, 'src', 'App.tsx'), 'utf8')).toBe('app');
    expect(await outcome(lstat(path.join(outside, 'App.tsx')))).toBe('ENOENT');
  });

  it('never creates a file through a link out, nor over a dangling link', async () => {
    await symlink(outside, path.join(project, 'out'));
    await symlink(path.join(outside, 'planted.txt'), path.join(project, 'dangling'));
    expect(await outcome(files.createFile('out/planted.txt'))).toBe('SANDBOX.PATH_OUTSIDE');
    expect(await outcome(files.createFile('dangling'))).toBe('EEXIST');
    expect(await outcome(lstat(path.join(outside, 'planted.txt')))).toBe('ENOENT');
  });

  it('exports the files only: links (out or in) are skipped, excluded names left out', async () => {
    await symlink(path.join(outside, 'secret.txt'), path.join(project, 'leak.txt'));
    await symlink(outside, path.join(project, 'out'));
    await mkdir(path.join(project, 'node_modules', 'x'), { recursive: true });
    await writeFile(path.join(project, 'node_modules', 'x', 'index.js'), 'dep');
    await writeFile(path.join(project, 'src', 'bad\\name.ts'), 'a name a zip would misread');
    expect(await exported(files)).toEqual(new Map([['src/App.tsx', 'app']]));
  });

  it('refuses an export over its cap before it starts', async () => {
    await writeFile(path.join(project, 'big.bin'), Buffer.alloc(4096));
    expect(await outcome(exported(files, [], 1024))).toBe('SANDBOX.TOO_LARGE');
  });
});

// tools/build-cache.mjs decides whether `npm start` may skip a build: only when the stamp in the
// output folder names exactly the current inputs, and the outputs a run needs are there.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildKey, clearStamp, inputFiles, isFresh, readStamp, writeStamp } from './build-cache.mjs';

let root: string;
const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
};
const outDir = () => path.join(root, 'lib/dist');

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'kiln-build-cache-'));
  write('tsconfig.base.json', '{}');
  write('lib/src/index.ts', 'export const a = 1;\n');
  write('lib/src/b/b.ts', 'export const b = 2;\n');
  write('lib/tsconfig.json', '{}');
  write('lib/dist/index.js', 'exports.a = 1;\n');
  write('lib/node_modules/x/index.js', 'junk');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('inputFiles', () => {
  it('lists the files of a folder, sorted, without outputs and installed packages', () => {
    expect(inputFiles(root, 'lib').sort()).toEqual(['lib/src/b/b.ts', 'lib/src/index.ts', 'lib/tsconfig.json']);
  });

  it('takes a single file as itself, and a missing one as nothing', () => {
    expect(inputFiles(root, 'tsconfig.base.json')).toEqual(['tsconfig.base.json']);
    expect(inputFiles(root, 'package-lock.json')).toEqual([]);
  });
});

describe('buildKey', () => {
  const key = (deps: string[] = []) => buildKey(root, ['tsconfig.base.json', 'lib'], deps);

  it('is the same for the same inputs, whatever their modification times', () => {
    const before = key();
    utimesSync(path.join(root, 'lib/src/index.ts'), new Date(2001, 0, 1), new Date(2001, 0, 1));
    expect(key()).toBe(before);
  });

  it('changes when a source changes, is added, removed or renamed', () => {
    const seen = new Set([key()]);
    write('lib/src/index.ts', 'export const a = 2;\n');
    seen.add(key());
    write('lib/src/c.ts', '');
    seen.add(key());
    rmSync(path.join(root, 'lib/src/c.ts'));
    rmSync(path.join(root, 'lib/src/b/b.ts'));
    write('lib/src/b/renamed.ts', 'export const b = 2;\n');
    seen.add(key());
    expect(seen.size).toBe(4);
  });

  it('changes with a shared input or a dependency, not with outputs or installed packages', () => {
    const before = key(['dep-1']);
    write('lib/dist/index.js', 'changed');
    write('lib/node_modules/x/index.js', 'changed');
    expect(key(['dep-1'])).toBe(before);
    expect(key(['dep-2'])).not.toBe(before);
    write('tsconfig.base.json', '{"strict":true}');
    expect(key(['dep-1'])).not.toBe(before);
  });

  it('cannot be fooled by moving bytes between a file name and its content', () => {
    write('lib/src/index.ts', '');
    write('lib/src/b/b.ts', '');
    const split = key();
    rmSync(path.join(root, 'lib/src/b/b.ts'));
    write('lib/src/index.ts', 'lib/src/b/b.ts');
    expect(key()).not.toBe(split);
  });
});

describe('stamps', () => {
  it('a build is fresh only after its stamp is written with the same key', () => {
    expect(readStamp(outDir())).toBeNull();
    expect(isFresh(outDir(), 'k1', ['index.js'])).toBe(false);
    writeStamp(outDir(), 'k1');
    expect(readStamp(outDir())).toBe('k1');
    expect(isFresh(outDir(), 'k1', ['index.js'])).toBe(true);
    expect(isFresh(outDir(), 'k2', ['index.js'])).toBe(false);
  });

  it('is stale when an output a run needs is missing (a deleted or half-cleaned dist)', () => {
    writeStamp(outDir(), 'k1');
    expect(isFresh(outDir(), 'k1', ['index.js', 'main.js'])).toBe(false);
  });

  it('is stale after the stamp is cleared (a build that failed or was interrupted)', () => {
    writeStamp(outDir(), 'k1');
    clearStamp(outDir());
    expect(isFresh(outDir(), 'k1')).toBe(false);
    clearStamp(path.join(root, 'no/such/dir'));
  });

  it('a missing output folder is simply stale', () => {
    expect(isFresh(path.join(root, 'nowhere'), 'k1')).toBe(false);
  });
});

import { describe, expect, it } from '@jest/globals';
import {
  CHUNK_LINES,
  CHUNK_OVERLAP_LINES,
  MAX_CHUNK_CHARS,
  MAX_INDEXED_FILE_CHARS,
  chunkFile,
  indexSkipReason,
  isRemovedBy,
  normalizeIndexPath,
  normalizeRemovedPaths,
  prepareIndex,
} from './chunking.js';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

describe('chunkFile', () => {
  it('keeps a small file whole, its path terms first in the search text', () => {
    expect(chunkFile('src/App.tsx', 'export function App() {}\n')).toEqual([
      { path: 'src/App.tsx', index: 0, startLine: 1, content: 'export function App() {}', searchText: 'src app tsx app' },
    ]);
  });

  it('cuts long files into overlapping windows of lines', () => {
    const chunks = chunkFile('a.ts', lines(130));
    expect(chunks.map((c) => c.startLine)).toEqual([1, 51, 101]);
    expect(chunks[0]?.content.split('\n')).toHaveLength(CHUNK_LINES);
    expect(chunks[1]?.content.startsWith(`line ${CHUNK_LINES - CHUNK_OVERLAP_LINES + 1}\n`)).toBe(true);
    expect(chunks.at(-1)?.content.endsWith('line 130')).toBe(true);
  });

  it('cuts a window of very long lines by characters', () => {
    const chunks = chunkFile('bundle.js', 'x'.repeat(MAX_CHUNK_CHARS * 2 + 5));
    expect(chunks.map((c) => c.content.length)).toEqual([MAX_CHUNK_CHARS, MAX_CHUNK_CHARS, 5]);
    expect(chunks.map((c) => c.index)).toEqual([0, 1, 2]);
  });

  it('makes one empty chunk of an empty file', () => {
    expect(chunkFile('src/Empty.tsx', '')).toEqual([{ path: 'src/Empty.tsx', index: 0, startLine: 1, content: '', searchText: 'src empty tsx' }]);
  });
});

describe('indexSkipReason', () => {
  it.each([
    ['src/App.tsx', 'x', null],
    ['../etc/passwd', 'x', 'invalid-path'],
    ['.', 'x', 'invalid-path'],
    ['node_modules/react/index.js', 'x', 'ignored'],
    ['packages/ui/node_modules/a.js', 'x', 'ignored'],
    ['.env', 'x', 'ignored'],
    ['app.tsbuildinfo', 'x', 'ignored'],
    ['pnpm-lock.yaml', 'x', 'ignored'],
    ['dist.ts', 'x', null],
    ['public/logo.PNG', 'x', 'ignored'],
    ['src/logo.png', 'x', 'ignored'],
    ['src/blob.ts', 'a\u0000b', 'binary'],
    ['src/mojibake.ts', '\ufffd'.repeat(10) + 'a'.repeat(100), 'binary'],
    ['src/accents.ts', 'é'.repeat(100), null],
    ['src/huge.ts', 'x'.repeat(MAX_INDEXED_FILE_CHARS + 1), 'too-large'],
  ])('%p', (path, content, reason) => {
    expect(indexSkipReason({ path, content })).toBe(reason);
  });
});

describe('prepareIndex', () => {
  it('normalises paths, lets the last copy of a path win and reports what it skipped', () => {
    const prepared = prepareIndex([
      { path: './src//b.ts', content: 'first' },
      { path: 'src/a.ts', content: 'alpha' },
      { path: 'src/b.ts', content: 'second' },
      { path: 'src/c.ts', content: 'kept' },
      { path: 'src/c.ts', content: '\u0000' },
      { path: '/abs.ts', content: 'x' },
    ]);
    expect(prepared.indexed).toEqual(['src/a.ts', 'src/b.ts']);
    expect(prepared.paths).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts']);
    expect(prepared.chunks.map((c) => [c.path, c.content])).toEqual([
      ['src/a.ts', 'alpha'],
      ['src/b.ts', 'second'],
    ]);
    expect(prepared.skipped).toEqual([
      { path: 'src/c.ts', reason: 'binary' },
      { path: '/abs.ts', reason: 'invalid-path' },
    ]);
  });
});

describe('removal paths', () => {
  it('takes a file, a folder with everything under it, or everything for the root', () => {
    expect(isRemovedBy('src/a.ts', 'src/a.ts')).toBe(true);
    expect(isRemovedBy('src/components/A.tsx', 'src/components')).toBe(true);
    expect(isRemovedBy('src/componentsOld.ts', 'src/components')).toBe(false);
    expect(isRemovedBy('anything.ts', '.')).toBe(true);
    expect(normalizeRemovedPaths(['./src/', 'src', '../x', '.', 'b//c'])).toEqual(['.', 'b/c', 'src']);
    expect(normalizeIndexPath('./src/../index.html')).toBe('index.html');
  });
});

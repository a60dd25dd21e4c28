import { describe, expect, it } from '@jest/globals';
import { type FileTreeEntry, TREE_IGNORE_LIST } from './sandbox-files.port.js';
import { matchesTreeIgnore, pruneTree } from './tree-ignore.js';

describe('matchesTreeIgnore', () => {
  it.each([['node_modules'], ['.git'], ['.env'], ['dev.db'], ['tsconfig.tsbuildinfo'], ['package-lock.json'], ['.kiln']])(
    'hides %p',
    (name) => {
      expect(matchesTreeIgnore(name, TREE_IGNORE_LIST)).toBe(true);
    },
  );

  it.each([['src'], ['.env.example'], ['App.tsx'], ['node_modules2'], ['tsbuildinfo.md'], ['package.json']])(
    'shows %p',
    (name) => {
      expect(matchesTreeIgnore(name, TREE_IGNORE_LIST)).toBe(false);
    },
  );

  it('ignores nothing with no patterns', () => {
    expect(matchesTreeIgnore('node_modules', [])).toBe(false);
  });
});

describe('pruneTree', () => {
  const file = (path: string): FileTreeEntry => ({ name: path.split('/').at(-1) ?? path, type: 'file', path });
  const dir = (path: string, children: FileTreeEntry[]): FileTreeEntry => ({
    name: path.split('/').at(-1) ?? path,
    type: 'directory',
    path,
    children,
  });

  it('removes ignored entries at every depth and keeps the rest in order', () => {
    const tree = [
      dir('node_modules', [file('node_modules/x.js')]),
      dir('src', [file('src/App.tsx'), dir('src/.kiln', [file('src/.kiln/bridge.ts')]), file('src/main.tsx')]),
      file('.env'),
      file('package.json'),
    ];
    expect(pruneTree(tree, TREE_IGNORE_LIST)).toEqual([
      dir('src', [file('src/App.tsx'), file('src/main.tsx')]),
      file('package.json'),
    ]);
  });
});

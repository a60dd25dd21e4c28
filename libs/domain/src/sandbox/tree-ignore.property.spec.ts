import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { type FileTreeEntry, TREE_IGNORE_LIST } from './sandbox-files.port.js';
import { matchesTreeIgnore, pruneTree } from './tree-ignore.js';

const name = fc.oneof(fc.constantFrom(...TREE_IGNORE_LIST, 'tsconfig.tsbuildinfo'), fc.stringMatching(/^[a-z.]{1,6}$/));
const tree = fc.letrec<{ entry: FileTreeEntry; entries: FileTreeEntry[] }>((tie) => ({
  entry: fc.oneof(
    { depthSize: 'small' },
    name.map((n): FileTreeEntry => ({ name: n, type: 'file', path: n })),
    fc.tuple(name, tie('entries')).map(([n, children]): FileTreeEntry => ({ name: n, type: 'directory', path: n, children })),
  ),
  entries: fc.array(tie('entry'), { maxLength: 4 }),
})).entries;

const everyEntry = (entries: readonly FileTreeEntry[]): FileTreeEntry[] =>
  entries.flatMap((e) => [e, ...everyEntry(e.children ?? [])]);

describe('pruneTree properties', () => {
  it('leaves no ignored name at any depth', () => {
    fc.assert(
      fc.property(tree, (entries) => {
        for (const e of everyEntry(pruneTree(entries, TREE_IGNORE_LIST))) {
          expect(matchesTreeIgnore(e.name, TREE_IGNORE_LIST)).toBe(false);
        }
      }),
    );
  });

  it('is idempotent and changes nothing without patterns', () => {
    fc.assert(
      fc.property(tree, (entries) => {
        const once = pruneTree(entries, TREE_IGNORE_LIST);
        expect(pruneTree(once, TREE_IGNORE_LIST)).toEqual(once);
        expect(pruneTree(entries, [])).toEqual(entries);
      }),
    );
  });
});

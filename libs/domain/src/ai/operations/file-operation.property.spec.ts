import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { applyOperations, countOccurrences, validateOperation, type FileOperation } from './file-operation.js';

// Small alphabets so that collisions (same path, repeated search text) actually happen.
const segment = fc.constantFrom('src', 'a', 'b', 'c.ts', 'App.tsx', 'x.css', 'pages');
const filePath = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));
const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' ', '\n', '$', '&'), maxLength: 24 });

/** A consistent project: no path is both a file and a folder. */
const filesArb = fc.array(fc.tuple(filePath, text), { maxLength: 6 }).map((entries) => {
  const files = new Map<string, string>();
  for (const [path, content] of entries) {
    const clashes = [...files.keys()].some((other) => other.startsWith(`${path}/`) || path.startsWith(`${other}/`));
    if (!clashes) files.set(path, content);
  }
  return files;
});

const operationArb: fc.Arbitrary<FileOperation> = fc.oneof(
  fc.record({ type: fc.constant('write_file' as const), path: filePath, content: text }),
  fc.record({ type: fc.constant('edit_file' as const), path: filePath, search: text, replace: text }),
  fc.record({ type: fc.constant('delete_file' as const), path: filePath }),
  fc.record({ type: fc.constant('rename_file' as const), from: filePath, to: filePath }),
  fc.record({ type: fc.constant('run_command' as const), command: fc.constantFrom('ls', 'npm test', '') }),
  fc.record({ type: fc.constant('write_file' as const), path: fc.constantFrom('node_modules/x', '../x', '.git/HEAD'), content: text }),
);

const snapshot = (files: ReadonlyMap<string, string>) => [...files.entries()].sort(([a], [b]) => (a < b ? -1 : 1));

describe('applyOperations properties', () => {
  it('is deterministic: the same files and operations give the same answer', () => {
    fc.assert(
      fc.property(filesArb, fc.array(operationArb, { maxLength: 8 }), (files, ops) => {
        const first = applyOperations(files, ops);
        const second = applyOperations(new Map(files), ops);
        expect(first.ok).toBe(second.ok);
        if (first.ok && second.ok) {
          expect(snapshot(first.value.files)).toEqual(snapshot(second.value.files));
          expect(first.value.changes).toEqual(second.value.changes);
          expect(first.value.commands).toEqual(second.value.commands);
        } else {
          expect(first).toEqual(second);
        }
      }),
    );
  });

  it('never changes its input, and a failed batch changes nothing at all', () => {
    fc.assert(
      fc.property(filesArb, fc.array(operationArb, { maxLength: 8 }), (files, ops) => {
        const before = snapshot(files);
        const result = applyOperations(files, ops);
        expect(snapshot(files)).toEqual(before);
        if (!result.ok) {
          expect(result.error.index).toBeGreaterThanOrEqual(0);
          expect(result.error.index).toBeLessThan(Math.max(ops.length, 1));
        }
      }),
    );
  });

  it('a write then a read gives back the written text', () => {
    fc.assert(
      fc.property(filesArb, filePath, text, (files, path, content) => {
        const result = applyOperations(files, [{ type: 'write_file', path, content }]);
        const clashes = [...files.keys()].some((other) => other.startsWith(`${path}/`) || path.startsWith(`${other}/`));
        expect(result.ok).toBe(!clashes);
        if (result.ok) {
          expect(result.value.files.get(path)).toBe(content);
          expect(result.value.files.size).toBe(files.has(path) ? files.size : files.size + 1);
        }
      }),
    );
  });

  it('an edit with a unique search equals a plain string replace; otherwise it asks for the whole file', () => {
    fc.assert(
      fc.property(text, text.filter((s) => s.length > 0), text, (content, search, replace) => {
        const files = new Map([['src/a.ts', content]]);
        const result = applyOperations(files, [{ type: 'edit_file', path: 'src/a.ts', search, replace }]);
        const occurrences = countOccurrences(content, search);
        if (occurrences === 1) {
          expect(result.ok && result.value.files.get('src/a.ts')).toBe(content.split(search).join(replace));
        } else {
          expect(result).toMatchObject({ ok: false, error: { outcome: 'needs_full_file', path: 'src/a.ts', occurrences } });
        }
      }),
    );
  });

  it('a rename keeps the text and a delete removes the file', () => {
    fc.assert(
      fc.property(filesArb.filter((f) => f.size > 0), (files) => {
        const [path, content] = [...files.entries()][0] as [string, string];
        const renamed = applyOperations(files, [{ type: 'rename_file', from: path, to: 'renamed/file.ts' }]);
        if (renamed.ok) {
          expect(renamed.value.files.get('renamed/file.ts')).toBe(content);
          expect(renamed.value.files.has(path)).toBe(false);
        }
        const deleted = applyOperations(files, [{ type: 'delete_file', path }]);
        expect(deleted.ok && deleted.value.files.has(path)).toBe(false);
      }),
    );
  });

  it('validation never lets a path into node_modules, .git or src/.kiln, however it is written', () => {
    const piece = fc.constantFrom('..', '.', '', 'src', 'node_modules', '.git', '.kiln', 'a');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), (parts) => {
        const result = validateOperation({ type: 'write_file', path: parts.join('/'), content: '' });
        if (result.ok && result.value.type === 'write_file') {
          const segments = result.value.path.split('/');
          expect(segments).not.toContain('node_modules');
          expect(segments).not.toContain('.git');
          expect(result.value.path.startsWith('src/.kiln/') || result.value.path === 'src/.kiln').toBe(false);
          expect(segments).not.toContain('..');
        }
      }),
    );
  });
});

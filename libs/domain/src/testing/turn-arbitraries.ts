import fc from 'fast-check';
import { applyOperations, type FileOperation } from '../ai/operations/file-operation.js';
import type { TurnTestKit } from '../ai/engine/testing/turn-test-kit.js';

/** Arbitraries and helpers of the turn properties (run-turn, recover-interrupted-turns). */

// Small pools so operations hit existing files, clash with folders and find (or miss) their search text.
const PATHS = ['src/App.tsx', 'src/a.ts', 'src/lib/b.ts', 'src/lib', 'index.html', 'package.json', 'public/logo.svg', 'notes.md', 'src/new/deep/c.ts'];
const WORDS = ['alpha', 'beta', 'gamma', '{}', '\n'];

export const content = fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((w) => w.join(' '));
export const path = fc.constantFrom(...PATHS);

/** Initial files: any subset of the pool with contents, minus paths that would be both a file and a folder. */
export const initialFiles = fc.dictionary(path, content, { maxKeys: 6 }).map((files) => {
  const out: Record<string, string> = {};
  for (const p of Object.keys(files).sort()) {
    const clash = Object.keys(out).some((q) => q.startsWith(`${p}/`) || p.startsWith(`${q}/`));
    if (!clash) out[p] = files[p] ?? '';
  }
  return out;
});

export const operation: fc.Arbitrary<FileOperation> = fc.oneof(
  fc.record({ type: fc.constant('write_file' as const), path, content }),
  fc.record({ type: fc.constant('edit_file' as const), path, search: fc.constantFrom(...WORDS), replace: content }),
  fc.record({ type: fc.constant('delete_file' as const), path }),
  fc.record({ type: fc.constant('rename_file' as const), from: path, to: path }),
  fc.record({ type: fc.constant('add_dependency' as const), name: fc.constantFrom('zod', 'left-pad'), version: fc.constant('^1.0.0') }),
);
export const batches = fc.array(fc.array(operation, { maxLength: 6 }), { minLength: 1, maxLength: 3 });

let projects = 0;

/** A fresh project of the kit whose files are exactly `files` (the starter removed). */
export async function projectWith(t: TurnTestKit, files: Record<string, string>): Promise<string> {
  const id = await t.addProject(`prop-${++projects}`);
  for (const entry of await t.host.getTree(id, '.', [])) await t.host.deleteFile(id, entry.path);
  for (const [p, text] of Object.entries(files)) await t.host.writeFile(id, p, text);
  await t.host.saveVersion(id, 'Start');
  return id;
}

/** What the workspace does to a batch, modelled on the pure rule: leave out what cannot apply. */
export function model(files: Map<string, string>, batch: readonly FileOperation[]): Map<string, string> {
  let ops = [...batch];
  for (;;) {
    const result = applyOperations(files, ops);
    if (result.ok) return new Map(result.value.files);
    const failed = result.error.index;
    ops = ops.filter((_, i) => i !== failed);
  }
}

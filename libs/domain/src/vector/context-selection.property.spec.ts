import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { ProjectFile } from '../ai/ai-assistant.port.js';
import { CONTEXT_ENTRY_POINTS, contextCost, contextOrder, isContextEntryPoint, selectContextFiles } from './context-selection.js';
import type { VectorMatch } from './vector-index.port.js';

const path = fc.oneof(
  fc.constantFrom(...CONTEXT_ENTRY_POINTS),
  fc.stringMatching(/^(src\/)?[a-z]{1,6}\.(ts|tsx|css)$/),
);
const tree = fc.uniqueArray(fc.record({ path, content: fc.string({ maxLength: 400 }) }), { selector: (f) => f.path, maxLength: 20 });
const matchesFor = (files: readonly ProjectFile[]) =>
  fc.array(
    fc.record({
      path: files.length > 0 ? fc.oneof(fc.constantFrom(...files.map((f) => f.path)), path) : path,
      score: fc.double({ min: 0.01, max: 100, noNaN: true }),
      snippet: fc.constant(''),
    }),
    { maxLength: 10 },
  );
const input = tree.chain((files) => fc.tuple(fc.constant(files), matchesFor(files), fc.integer({ min: -10, max: 3_000 })));

describe('selectContextFiles properties', () => {
  it('never exceeds the budget and gives whole files of the tree, each once', () => {
    fc.assert(
      fc.property(input, ([files, matches, budget]) => {
        const selection = selectContextFiles(files, matches, budget);
        const total = selection.files.reduce((sum, f) => sum + contextCost(f), 0);
        expect(total).toBe(selection.usedChars);
        expect(total).toBeLessThanOrEqual(Math.max(0, budget));
        for (const f of selection.files) expect(files).toContainEqual(f);
        expect(new Set(selection.files.map((f) => f.path)).size).toBe(selection.files.length);
      }),
    );
  });

  it('is deterministic, whatever the order of the tree and of the matches', () => {
    fc.assert(
      fc.property(input, fc.func(fc.integer()), ([files, matches, budget], key) => {
        const shuffle = <T>(xs: readonly T[]) => [...xs].map((x, i) => ({ x, k: key(i) })).sort((a, b) => a.k - b.k).map((e) => e.x);
        const a = selectContextFiles(files, matches, budget);
        expect(selectContextFiles(shuffle(files), shuffle(matches), budget)).toEqual(a);
        expect(selectContextFiles(files, matches, budget)).toEqual(a);
      }),
    );
  });

  it('puts entry points first (in their fixed order), then query hits, then the rest', () => {
    fc.assert(
      fc.property(input, ([files, matches, budget]) => {
        const chosen = selectContextFiles(files, matches, budget).files.map((f) => f.path);
        const hit = new Set(matches.map((m) => m.path));
        const rank = (p: string) => (isContextEntryPoint(p) ? 0 : hit.has(p) ? 1 : 2);
        const ranks = chosen.map(rank);
        expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
        const entries = chosen.filter(isContextEntryPoint);
        expect(entries).toEqual(CONTEXT_ENTRY_POINTS.filter((e) => entries.includes(e)));
      }),
    );
  });

  it('is greedy: a candidate is left out only when it did not fit in what was left', () => {
    fc.assert(
      fc.property(input, ([files, matches, budget]) => {
        const selection = selectContextFiles(files, matches, budget);
        const chosen = new Set(selection.files.map((f) => f.path));
        let left = Math.max(0, budget);
        for (const p of contextOrder(files.map((f) => f.path), matches)) {
          const cost = contextCost(files.find((f) => f.path === p) as ProjectFile);
          if (chosen.has(p)) left -= cost;
          else {
            expect(selection.omitted).toContain(p);
            expect(cost).toBeGreaterThan(left);
          }
        }
      }),
    );
  });

  it('takes every file when they all fit, and none for a budget of zero', () => {
    fc.assert(
      fc.property(tree, (files) => {
        const total = files.reduce((sum, f) => sum + contextCost(f), 0);
        expect(selectContextFiles(files, [], total).files).toHaveLength(files.length);
        expect(selectContextFiles(files, [], 0).files).toEqual([]);
      }),
    );
  });
});

describe('selectContextFiles examples', () => {
  it('orders entry points, then hits by score, then src/ before other files', () => {
    const f = (p: string, size = 10): ProjectFile => ({ path: p, content: 'x'.repeat(size) });
    const files = [f('zeta.md'), f('src/util.ts'), f('index.html'), f('src/App.tsx'), f('src/hit.ts'), f('src/top.ts')];
    const matches: VectorMatch[] = [
      { path: 'src/hit.ts', score: 1, snippet: '' },
      { path: 'src/top.ts', score: 5, snippet: '' },
      { path: 'src/deleted.ts', score: 9, snippet: '' },
    ];
    expect(selectContextFiles(files, matches, 10_000).files.map((x) => x.path)).toEqual([
      'src/App.tsx',
      'index.html',
      'src/top.ts',
      'src/hit.ts',
      'src/util.ts',
      'zeta.md',
    ]);
    // Without the rest; a file too large is skipped and a smaller one after it still fits.
    const big = [f('src/App.tsx', 500), f('src/top.ts', 10), f('src/hit.ts', 10)];
    const selection = selectContextFiles(big, matches, 100, { includeRest: false });
    expect(selection).toEqual({ files: [big[1], big[2]], omitted: ['src/App.tsx'], usedChars: 40 });
  });
});

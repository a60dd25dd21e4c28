// docs/architecture.md: the rooms of libs/domain/src (its top-level folders) depend on each other
// one way. This reads every production file's relative imports (specs and testing/ folders
// excluded), builds the folder-level graph and fails on any cycle, naming the imports that make
// it, so the failure says what to move.
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const domainSrc = path.join(repoRoot, 'libs/domain/src');
const IMPORT = /(?:import|export)\s[^'"]*?from\s+'(\.{1,2}\/[^']+)'|import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g;

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : productionFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.spec\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The room (top-level folder) of a file; null for the barrel at the root. */
function roomOf(file: string): string | null {
  const [first, ...rest] = path.relative(domainSrc, file).split(path.sep);
  return rest.length === 0 ? null : (first as string);
}

/** room → room it imports → the imports that make that edge (`file → specifier`). */
function roomGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of productionFiles(domainSrc)) {
    const from = roomOf(file);
    if (from === null) continue;
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(IMPORT)) {
      const specifier = (match[1] ?? match[2]) as string;
      const to = roomOf(path.resolve(path.dirname(file), specifier));
      if (to === null || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      edges.set(to, [...(edges.get(to) ?? []), `${path.relative(domainSrc, file)} → ${specifier}`]);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Strongly connected components with more than one room (Tarjan). */
function cycles(graph: Map<string, Map<string, string[]>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (room: string): void => {
    index.set(room, next);
    low.set(room, next);
    next += 1;
    stack.push(room);
    onStack.add(room);
    for (const to of graph.get(room)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(room, Math.min(low.get(room) as number, low.get(to) as number));
      } else if (onStack.has(to)) {
        low.set(room, Math.min(low.get(room) as number, index.get(to) as number));
      }
    }
    if (low.get(room) === index.get(room)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== room);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const room of graph.keys()) if (!index.has(room)) visit(room);
  return found;
}

describe('libs/domain/src rooms', () => {
  const graph = roomGraph();

  it('reads the real graph (so an empty walk cannot pass)', () => {
    expect(graph.get('ai')?.has('sandbox')).toBe(true);
    expect(graph.get('credits')?.has('shared')).toBe(true);
  });

  it('finds a cycle when there is one (the check itself)', () => {
    const probe = new Map([
      ['a', new Map([['b', ['a/x.ts → ../b/y.js']]])],
      ['b', new Map([['c', ['b/y.ts → ../c/z.js']]])],
      ['c', new Map([['a', ['c/z.ts → ../a/x.js']]])],
      ['d', new Map([['a', ['d/w.ts → ../a/x.js']]])],
    ]);
    expect(cycles(probe)).toEqual([['a', 'b', 'c']]);
  });

  it('depend on each other one way: no cycle between rooms', () => {
    const report = cycles(graph).map((component) =>
      component.flatMap((from) => component.flatMap((to) => (graph.get(from)?.get(to) ?? []).map((edge) => `${from} → ${to}: ${edge}`))),
    );
    expect(report).toEqual([]);
  });
});

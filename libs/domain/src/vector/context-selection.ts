import type { ProjectFile } from '../ai/ai-assistant.port.js';
import { comparePaths } from './chunking.js';
import type { VectorMatch } from './vector-index.port.js';

/** The files that show how an app is put together; the assistant always sees them first when they fit. */
export const CONTEXT_ENTRY_POINTS = Object.freeze(['src/main.tsx', 'src/App.tsx', 'package.json', 'index.html'] as const);

/**
 * What the assistant is given of a project's files by default, in characters (about 30 000
 * tokens): far below any supported model's context, leaving room for the tree, the chat
 * history and the answer.
 */
export const DEFAULT_CONTEXT_BUDGET_CHARS = 120_000;

export interface ContextSelection {
  /** Whole files, in the order they were chosen (entry points, query hits by score, then the rest). */
  readonly files: readonly ProjectFile[];
  /** Candidates that did not fit in what was left of the budget, in the same order. */
  readonly omitted: readonly string[];
  /** The sum of contextCost over `files`; never more than the budget. */
  readonly usedChars: number;
}

/** What a file takes of the budget: its path and its text. */
export function contextCost(file: ProjectFile): number {
  return file.path.length + file.content.length;
}

export function isContextEntryPoint(path: string): boolean {
  return (CONTEXT_ENTRY_POINTS as readonly string[]).includes(path);
}

/**
 * The order in which files are considered for the assistant's context: the entry points that
 * exist (in CONTEXT_ENTRY_POINTS order), then query hits (score descending, then path) that
 * exist, then — when `includeRest` — every other file, those under src/ first, by path.
 * Paths not in `paths` (a stale index) are dropped; each path appears once.
 */
export function contextOrder(paths: readonly string[], matches: readonly VectorMatch[], includeRest = true): string[] {
  const present = new Set(paths);
  const order: string[] = [];
  const seen = new Set<string>();
  const push = (path: string) => {
    if (!present.has(path) || seen.has(path)) return;
    seen.add(path);
    order.push(path);
  };
  for (const entry of CONTEXT_ENTRY_POINTS) push(entry);
  for (const match of [...matches].sort((a, b) => b.score - a.score || comparePaths(a.path, b.path))) push(match.path);
  if (includeRest) {
    const src = (path: string) => (path.startsWith('src/') ? 0 : 1);
    for (const path of [...present].sort((a, b) => src(a) - src(b) || comparePaths(a, b))) push(path);
  }
  return order;
}

export interface SelectContextOptions {
  /** Fill what is left of the budget with files that are neither entry points nor hits (default true). */
  readonly includeRest?: boolean;
}

/**
 * Picks whole files for the assistant within `budgetChars` (contextCost each), so the model's
 * context never overflows however large the project: candidates in contextOrder, each taken
 * when it fits in what is left — a file too large is skipped (omitted) and smaller ones after it
 * may still fit. Deterministic: the same files (in any order) and matches give the same answer.
 * `tree` is the project's files with their text (when one path is given twice, the first wins);
 * a budget that is not a positive number selects nothing.
 */
export function selectContextFiles(
  tree: readonly ProjectFile[],
  matches: readonly VectorMatch[],
  budgetChars: number,
  options: SelectContextOptions = {},
): ContextSelection {
  const byPath = new Map<string, ProjectFile>();
  for (const file of tree) if (!byPath.has(file.path)) byPath.set(file.path, file);
  let left = Number.isFinite(budgetChars) && budgetChars > 0 ? Math.floor(budgetChars) : 0;
  const files: ProjectFile[] = [];
  const omitted: string[] = [];
  let usedChars = 0;
  for (const path of contextOrder([...byPath.keys()], matches, options.includeRest ?? true)) {
    const file = byPath.get(path) as ProjectFile;
    const cost = contextCost(file);
    if (cost > left) {
      omitted.push(path);
      continue;
    }
    files.push(file);
    left -= cost;
    usedChars += cost;
  }
  return { files, omitted, usedChars };
}

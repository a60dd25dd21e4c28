import type { FileTreeEntry } from '../../sandbox/sandbox-files.port.js';
import type { AiMessage, ProjectFile } from '../ai-assistant.port.js';

/**
 * The most characters a turn sends the assistant with each request, besides the standing
 * instructions: the request, the file listing, the chat history and the files' text together
 * (about 50 000 tokens). AI_CONTEXT_CHARS sets it for models with a smaller window.
 */
export const DEFAULT_CONTEXT_LIMIT_CHARS = 200_000;
/** The file listing may take at most this share of the budget, the chat history this one. */
export const TREE_SHARE = 0.1;
export const HISTORY_SHARE = 0.15;
/** One earlier message is cut to this many characters in the history. */
export const HISTORY_MESSAGE_CHARS = 4000;
/** Kept free for what a request adds besides files (the plan, the task, errors to fix). */
export const CONTEXT_RESERVE_CHARS = 4000;

/** Characters of a listing as the assistant reads it (one path a line). */
export const listingChars = (tree: readonly string[]): number => tree.reduce((sum, p) => sum + p.length + 1, 0);

/**
 * The file listing within `budgetChars`: whole when it fits, else the paths under src/ and the
 * root files first (what edits touch), in order, then a last line saying how many were left out.
 */
export function fitTree(tree: readonly string[], budgetChars: number): string[] {
  if (listingChars(tree) <= budgetChars) return [...tree];
  const rank = (p: string) => (p.startsWith('src/') ? 0 : p.includes('/') ? 2 : 1);
  const ordered = [...tree].sort((a, b) => rank(a) - rank(b));
  const kept: string[] = [];
  let used = 40; // room for the closing line
  for (const path of ordered) {
    if (used + path.length + 1 > budgetChars) break;
    kept.push(path);
    used += path.length + 1;
  }
  const left = tree.length - kept.length;
  const keptSet = new Set(kept);
  return [...tree.filter((p) => keptSet.has(p)), `… and ${left} more file${left === 1 ? '' : 's'} not listed`];
}

/** Total characters of chat messages. */
export const historyChars = (history: readonly AiMessage[]): number => history.reduce((sum, m) => sum + m.content.length, 0);

/**
 * The most recent chat history within `budgetChars`: each message cut to
 * HISTORY_MESSAGE_CHARS (or half the budget, if less), then whole messages taken from the newest back while they fit (a
 * reply is never kept without the message it answers).
 */
export function fitHistory(history: readonly AiMessage[], budgetChars: number): AiMessage[] {
  // At most half the budget a message, so the last exchange (a request and its reply) fits.
  const cap = Math.max(1, Math.min(HISTORY_MESSAGE_CHARS, Math.floor(budgetChars / 2)));
  const cut = history.map((m) => (m.content.length <= cap ? m : { ...m, content: `${m.content.slice(0, cap - 1)}…` }));
  let start = cut.length;
  let used = 0;
  while (start > 0) {
    const next = cut[start - 1] as AiMessage;
    if (used + next.content.length > budgetChars) break;
    used += next.content.length;
    start -= 1;
  }
  // Begin with a person's message, not a reply whose question was left out.
  while (start < cut.length && cut[start]?.role !== 'user') start += 1;
  return cut.slice(start);
}

/** What is left of the budget for file contents once the request, listing and history are in. */
export function filesBudget(limitChars: number, sent: { readonly prompt: string; readonly tree: readonly string[]; readonly history: readonly AiMessage[] }): number {
  return Math.max(0, limitChars - CONTEXT_RESERVE_CHARS - sent.prompt.length - listingChars(sent.tree) - historyChars(sent.history));
}

/** Files read as text for the assistant (by extension). */
export const TEXT_FILE_EXTENSIONS: readonly string[] = Object.freeze([
  '.ts',
  '.tsx',
  '.js',
  '.jsx',
  '.mjs',
  '.cjs',
  '.css',
  '.scss',
  '.html',
  '.json',
  '.md',
  '.svg',
  '.txt',
  '.yml',
  '.yaml',
]);

/** Files that always come first, when they exist: the manifest and the entry points. */
const FIRST = ['package.json', 'index.html', 'src/main.tsx', 'src/App.tsx', 'src/main.ts', 'src/index.css'];

export function isTextFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return TEXT_FILE_EXTENSIONS.some((ext) => name.endsWith(ext));
}

/** Every file path of a tree (folders left out), in tree order. */
export function filePaths(tree: readonly FileTreeEntry[]): string[] {
  const paths: string[] = [];
  const walk = (entries: readonly FileTreeEntry[]) => {
    for (const entry of entries) {
      if (entry.type === 'file') paths.push(entry.path);
      else walk(entry.children ?? []);
    }
  };
  walk(tree);
  return paths;
}

/** Every folder path of a tree. */
export function folderPaths(tree: readonly FileTreeEntry[]): string[] {
  const paths: string[] = [];
  const walk = (entries: readonly FileTreeEntry[]) => {
    for (const entry of entries) {
      if (entry.type === 'directory') {
        paths.push(entry.path);
        walk(entry.children ?? []);
      }
    }
  };
  walk(tree);
  return paths;
}

export interface ContextRequest {
  readonly projectId: string;
  /** What the person asked for (a relevance-based selector would use it). */
  readonly prompt: string;
  /** The project's file paths, as the assistant sees them. */
  readonly tree: readonly string[];
  /** Reads a file's current text (the turn's own changes included). */
  readonly read: (path: string) => Promise<string>;
  /** Files that must be included (e.g. the one the assistant must send whole). */
  readonly required: readonly string[];
  readonly limitChars: number;
}

/**
 * Chooses the files the assistant reads for a turn. This is the seam for a relevance-based
 * selection (the VectorIndex port): replace `selectContext` through the turn settings (the API
 * uses the project's vector index, with this default as its fallback).
 */
export type ContextSelector = (request: ContextRequest) => Promise<readonly ProjectFile[]>;

/**
 * The default selection, enough for small projects: the required files, then package.json,
 * index.html and the entry points, then every other text file under src/ in path order, as long
 * as the total stays within the limit (a file that does not fit is left out, smaller ones after
 * it may still fit).
 */
export const selectContext: ContextSelector = async (request) => {
  const inTree = new Set(request.tree);
  const candidates = request.tree.filter((p) => p.startsWith('src/') && isTextFile(p)).sort();
  const ordered = [...new Set([...request.required.filter((p) => inTree.has(p)), ...FIRST.filter((p) => inTree.has(p)), ...candidates])];
  const files: ProjectFile[] = [];
  let total = 0;
  for (const path of ordered) {
    const content = await request.read(path);
    const required = request.required.includes(path);
    if (!required && total + content.length > request.limitChars) continue;
    files.push({ path, content });
    total += content.length;
  }
  return files;
};

import type { FileTreeEntry } from '../../sandbox/sandbox-host.port.js';
import type { ProjectFile } from '../ai-assistant.port.js';

/** The most text (characters) of project files a turn sends the assistant as context. */
export const DEFAULT_CONTEXT_LIMIT_CHARS = 200_000;

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

import type { ProjectFile } from '../ai/ai-assistant.port.js';
import { TREE_IGNORE_LIST } from '../sandbox/sandbox-files.port.js';
import { resolveSandboxPath } from '../sandbox/sandbox-path.js';
import { matchesTreeIgnore } from '../sandbox/tree-ignore.js';
import { searchTerms } from './search-terms.js';

/** A chunk holds about this many lines … */
export const CHUNK_LINES = 60;
/** … the last this many of which start the next chunk too, so a match across the cut is kept whole. */
export const CHUNK_OVERLAP_LINES = 10;
/** A chunk is cut further when its lines hold more characters than this (minified code, long lines). */
export const MAX_CHUNK_CHARS = 4_000;
/** Files larger than this (in characters) are not indexed: generated data, bundles, dumps. */
export const MAX_INDEXED_FILE_CHARS = 256 * 1024;

/**
 * Names the index leaves out besides the SPEC §9 tree ignore list: other package managers'
 * lockfiles, source maps and minified bundles (generated, huge, never what a request is about).
 */
export const VECTOR_IGNORE_LIST = Object.freeze(['yarn.lock', 'pnpm-lock.yaml', 'bun.lockb', 'bun.lock', '*.map', '*.min.js', '*.min.css'] as const);

/** Endings of files that are not text (their bytes would only add noise). */
const BINARY_EXTENSIONS = new Set(
  (
    'png jpg jpeg gif webp avif ico bmp tif tiff psd heic woff woff2 ttf otf eot mp3 mp4 m4a wav ogg oga webm mov avi flac ' +
    'zip gz tgz bz2 xz 7z rar tar pdf wasm exe dll so dylib bin dat db sqlite sqlite3 lockb class jar pyc node'
  ).split(' '),
);

export type IndexSkipReason = 'invalid-path' | 'ignored' | 'binary' | 'too-large';

/** One piece of a file as the index stores it. */
export interface FileChunk {
  readonly path: string;
  /** 0-based position of the chunk in its file. */
  readonly index: number;
  /** 1-based line of the file where the chunk starts. */
  readonly startLine: number;
  readonly content: string;
  /** searchTerms of the path and the content, space-separated (what full-text search reads). */
  readonly searchText: string;
}

export interface PreparedIndex {
  /** Every chunk of every indexed file, by path then index. */
  readonly chunks: readonly FileChunk[];
  /** Normalised paths of the indexed files, sorted. */
  readonly indexed: readonly string[];
  /** Every valid path given, normalised and sorted: indexed or skipped, what a partial reindex replaces. */
  readonly paths: readonly string[];
  readonly skipped: readonly { readonly path: string; readonly reason: IndexSkipReason }[];
}

/** The project-relative form of a path ('./src//App.tsx' → 'src/App.tsx'), or null when it leaves the project or is the root. */
export function normalizeIndexPath(path: string): string | null {
  const resolved = resolveSandboxPath(path);
  return resolved.ok && resolved.value !== '.' ? resolved.value : null;
}

/** Whether a normalised path is under the tree ignore list (any segment) or names a file the index never reads. */
export function isIgnoredForIndex(path: string): boolean {
  const segments = path.split('/');
  if (segments.some((segment) => matchesTreeIgnore(segment, TREE_IGNORE_LIST))) return true;
  const name = segments.at(-1) ?? '';
  if (matchesTreeIgnore(name, VECTOR_IGNORE_LIST)) return true;
  const dot = name.lastIndexOf('.');
  return dot > 0 && BINARY_EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
}

/** Text that holds NUL, or more than 1 in 50 of its first 8000 characters are controls or U+FFFD (bytes that were not UTF-8). */
export function looksBinary(content: string): boolean {
  if (content.includes('\u0000')) return true;
  const head = content.slice(0, 8_000);
  if (head.length === 0) return false;
  // Controls other than tab, newline, form feed and carriage return.
  const odd = head.match(/[\u0001-\u0008\u000b\u000e-\u001f\u007f\ufffd]/g)?.length ?? 0;
  return odd * 50 > head.length;
}

/** Why a file is not indexed, or null when it is. */
export function indexSkipReason(file: ProjectFile): IndexSkipReason | null {
  const path = normalizeIndexPath(file.path);
  if (path === null) return 'invalid-path';
  if (isIgnoredForIndex(path)) return 'ignored';
  if (file.content.length > MAX_INDEXED_FILE_CHARS) return 'too-large';
  if (looksBinary(file.content)) return 'binary';
  return null;
}

/**
 * Cuts a file into chunks of CHUNK_LINES lines overlapping by CHUNK_OVERLAP_LINES, each cut
 * again into MAX_CHUNK_CHARS pieces when its lines are long. Every chunk's search text starts
 * with the path's terms. An empty file is one empty chunk (its path is still searchable).
 * `path` must already be normalised.
 */
export function chunkFile(path: string, content: string): FileChunk[] {
  const pathTerms = searchTerms(path).join(' ');
  const chunk = (index: number, startLine: number, text: string): FileChunk => ({
    path,
    index,
    startLine,
    content: text,
    searchText: [pathTerms, ...searchTerms(text)].filter((t) => t !== '').join(' '),
  });
  const lines = content.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.length === 0) return [chunk(0, 1, '')];
  const chunks: FileChunk[] = [];
  const step = CHUNK_LINES - CHUNK_OVERLAP_LINES;
  for (let start = 0; ; start += step) {
    const text = lines.slice(start, start + CHUNK_LINES).join('\n');
    for (let at = 0; at < text.length || at === 0; at += MAX_CHUNK_CHARS) {
      chunks.push(chunk(chunks.length, start + 1, text.slice(at, at + MAX_CHUNK_CHARS)));
    }
    if (start + CHUNK_LINES >= lines.length) break;
  }
  return chunks;
}

/**
 * What an adapter stores for these files: the chunks of each indexable file (paths normalised;
 * for a path given twice the last one wins) and the files left out, with the reason.
 */
export function prepareIndex(files: readonly ProjectFile[]): PreparedIndex {
  const latest = new Map<string, string>();
  const paths = new Set<string>();
  const skipped: { path: string; reason: IndexSkipReason }[] = [];
  for (const file of files) {
    const reason = indexSkipReason(file);
    const path = normalizeIndexPath(file.path);
    if (path !== null) paths.add(path);
    if (reason !== null || path === null) {
      if (path !== null) latest.delete(path);
      skipped.push({ path: path ?? file.path, reason: reason ?? 'invalid-path' });
      continue;
    }
    latest.set(path, file.content);
  }
  const indexed = [...latest.keys()].sort(comparePaths);
  return {
    chunks: indexed.flatMap((path) => chunkFile(path, latest.get(path) as string)),
    indexed,
    paths: [...paths].sort(comparePaths),
    skipped,
  };
}

/**
 * Whether a stored path goes with a removal: the path itself, anything under it as a folder,
 * and everything for '.'. `removed` must be normalised ('.' for the root).
 */
export function isRemovedBy(path: string, removed: string): boolean {
  return removed === '.' || path === removed || path.startsWith(`${removed}/`);
}

/** Removed paths in normal form ('.' for the root); paths that leave the project are dropped. */
export function normalizeRemovedPaths(removed: readonly string[]): string[] {
  const out = new Set<string>();
  for (const path of removed) {
    const resolved = resolveSandboxPath(path);
    if (resolved.ok) out.add(resolved.value);
  }
  return [...out].sort(comparePaths);
}

/**
 * The order of paths in every adapter: UTF-16 code units, which is PostgreSQL's COLLATE "C" (UTF-8
 * bytes) for every path without characters above U+FFFF.
 */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

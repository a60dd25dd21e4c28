import { comparePaths } from './chunking.js';
import { searchTerms } from './search-terms.js';
import type { VectorMatch } from './vector-index.port.js';

/** A snippet is at most this many characters (an ellipsis marks a cut). */
export const SNIPPET_MAX_CHARS = 240;

/**
 * A short excerpt of a chunk for a query: from the line holding the most distinct query terms
 * (the first of equals; the chunk's start when only the path matched), whole lines while they
 * fit, trailing spaces trimmed; cut with '…' when that line alone is too long.
 */
export function snippetFor(content: string, terms: readonly string[], maxChars: number = SNIPPET_MAX_CHARS): string {
  const wanted = new Set(terms);
  const lines = content.split('\n').map((line) => line.trimEnd());
  let from = 0;
  let most = 0;
  lines.forEach((line, i) => {
    const distinct = new Set(searchTerms(line).filter((term) => wanted.has(term))).size;
    if (distinct > most) {
      most = distinct;
      from = i;
    }
  });
  while (from < lines.length && lines[from] === '') from += 1;
  const taken: string[] = [];
  let length = 0;
  for (const line of lines.slice(from)) {
    const added = (taken.length === 0 ? 0 : 1) + line.length;
    if (length + added > maxChars) {
      if (taken.length === 0) taken.push(`${line.slice(0, Math.max(0, maxChars - 1))}…`);
      break;
    }
    taken.push(line);
    length += added;
  }
  return taken.join('\n').trimEnd();
}

/** A chunk with its score for one query (an adapter's raw result). */
export interface ScoredChunk {
  readonly path: string;
  readonly index: number;
  readonly content: string;
  readonly score: number;
}

/**
 * One match per file, scored by its best chunk (the lower index on ties), best first — score
 * descending, then path — at most `limit`; chunks scoring 0 or less are no match.
 */
export function bestPerFile(scored: readonly ScoredChunk[], terms: readonly string[], limit: number): VectorMatch[] {
  const best = new Map<string, ScoredChunk>();
  for (const chunk of scored) {
    if (!(chunk.score > 0)) continue;
    const current = best.get(chunk.path);
    if (current === undefined || chunk.score > current.score || (chunk.score === current.score && chunk.index < current.index)) {
      best.set(chunk.path, chunk);
    }
  }
  return [...best.values()]
    .sort((a, b) => b.score - a.score || comparePaths(a.path, b.path))
    .slice(0, limit)
    .map((chunk) => ({ path: chunk.path, score: chunk.score, snippet: snippetFor(chunk.content, terms) }));
}

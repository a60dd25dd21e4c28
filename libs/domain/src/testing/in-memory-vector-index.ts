import type { ProjectFile } from '../ai/ai-assistant.port.js';
import { type FileChunk, comparePaths, isRemovedBy, normalizeRemovedPaths, prepareIndex } from '../vector/chunking.js';
import { type ScoredChunk, bestPerFile } from '../vector/ranking.js';
import { queryTerms } from '../vector/search-terms.js';
import {
  DEFAULT_VECTOR_QUERY_LIMIT,
  type IndexedFileSummary,
  type VectorIndex,
  type VectorMatch,
  assertQueryLimit,
} from '../vector/vector-index.port.js';
import type { Pause } from './in-memory-credit-ledger.js';

/** BM25's usual constants: term-frequency saturation and length normalisation. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

interface StoredChunk extends FileChunk {
  /** Term → how often it occurs in the chunk's search text. */
  readonly frequencies: ReadonlyMap<string, number>;
  readonly length: number;
}

/** path → the file's chunks, in order. */
type ProjectChunks = Map<string, readonly StoredChunk[]>;

function store(chunk: FileChunk): StoredChunk {
  const frequencies = new Map<string, number>();
  const terms = chunk.searchText === '' ? [] : chunk.searchText.split(' ');
  for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
  return { ...chunk, frequencies, length: terms.length };
}

function group(chunks: readonly FileChunk[]): ProjectChunks {
  const byPath: ProjectChunks = new Map();
  for (const chunk of chunks) byPath.set(chunk.path, [...(byPath.get(chunk.path) ?? []), store(chunk)]);
  return byPath;
}

/**
 * VectorIndex in memory: Okapi BM25 over each project's chunks (searchTerms, so identifiers are
 * split like the PostgreSQL adapter's), deterministic. Every write replaces the project's map in
 * one synchronous step after the optional pause, so writes are atomic and never interleave.
 */
export class InMemoryVectorIndex implements VectorIndex {
  private readonly projects = new Map<string, ProjectChunks>();

  constructor(private readonly pause: Pause = () => Promise.resolve()) {}

  async fullReindex(projectId: string, files: readonly ProjectFile[]): Promise<void> {
    const prepared = prepareIndex(files);
    await this.pause();
    this.set(projectId, group(prepared.chunks));
  }

  async partialReindex(projectId: string, changed: readonly ProjectFile[], removed: readonly string[]): Promise<void> {
    const prepared = prepareIndex(changed);
    const drop = [...normalizeRemovedPaths(removed), ...prepared.paths];
    await this.pause();
    const next: ProjectChunks = new Map();
    for (const [path, chunks] of this.projects.get(projectId) ?? []) {
      if (!drop.some((r) => isRemovedBy(path, r))) next.set(path, chunks);
    }
    for (const [path, chunks] of group(prepared.chunks)) next.set(path, chunks);
    this.set(projectId, next);
  }

  async cloneTemplate(projectId: string, templateId: string): Promise<boolean> {
    await this.pause();
    const template = this.projects.get(templateId);
    if (template === undefined) return false;
    this.set(projectId, new Map(template));
    return true;
  }

  async query(projectId: string, text: string, limit: number = DEFAULT_VECTOR_QUERY_LIMIT): Promise<readonly VectorMatch[]> {
    assertQueryLimit(limit);
    await this.pause();
    const terms = queryTerms(text);
    const chunks = [...(this.projects.get(projectId)?.values() ?? [])].flat();
    if (terms.length === 0 || chunks.length === 0) return [];
    const averageLength = chunks.reduce((sum, c) => sum + c.length, 0) / chunks.length || 1;
    const idf = new Map(
      terms.map((term) => {
        const n = chunks.filter((c) => c.frequencies.has(term)).length;
        return [term, Math.log(1 + (chunks.length - n + 0.5) / (n + 0.5))] as const;
      }),
    );
    const scored: ScoredChunk[] = chunks.map((chunk) => {
      let score = 0;
      for (const term of terms) {
        const f = chunk.frequencies.get(term) ?? 0;
        if (f === 0) continue;
        score += ((idf.get(term) as number) * (f * (BM25_K1 + 1))) / (f + BM25_K1 * (1 - BM25_B + (BM25_B * chunk.length) / averageLength));
      }
      return { path: chunk.path, index: chunk.index, content: chunk.content, score };
    });
    return bestPerFile(scored, terms, limit);
  }

  async listFiles(projectId: string): Promise<readonly IndexedFileSummary[]> {
    await this.pause();
    return [...(this.projects.get(projectId) ?? [])]
      .map(([path, chunks]) => ({ path, chunks: chunks.length }))
      .sort((a, b) => comparePaths(a.path, b.path));
  }

  async remove(projectId: string): Promise<void> {
    await this.pause();
    this.projects.delete(projectId);
  }

  private set(projectId: string, chunks: ProjectChunks): void {
    if (chunks.size === 0) this.projects.delete(projectId);
    else this.projects.set(projectId, chunks);
  }
}

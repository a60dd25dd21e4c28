import {
  DEFAULT_VECTOR_QUERY_LIMIT,
  type FileChunk,
  type IndexedFileSummary,
  type ProjectFile,
  type VectorIndex,
  type VectorMatch,
  assertQueryLimit,
  bestPerFile,
  normalizeRemovedPaths,
  prepareIndex,
  queryTerms,
} from '@kiln/domain';
import type { EntityManager } from 'typeorm';
import type { PgUnitOfWork } from './pg-unit-of-work.js';
import { sql } from './sql.js';

/** Rows per INSERT statement, and characters of text per statement, whichever comes first. */
const BATCH_ROWS = 500;
const BATCH_CHARS = 4 * 1024 * 1024;

interface ChunkRow {
  readonly path: string;
  readonly chunk: number;
  readonly content: string;
  readonly score: number;
}

/**
 * VectorIndex on PostgreSQL full-text search (table `vector_chunks`, migration
 * 1795570000000-vector-index): each chunk's search text is the domain's searchTerms (so
 * identifiers are split exactly as in memory), `tsv` is generated from it with the 'simple'
 * configuration and searched through a GIN index; a query is the OR of its terms, ranked with
 * ts_rank_cd (cover density: a chunk using the terms in more places ranks higher). The best
 * chunk per file is chosen in SQL, the snippet in TypeScript (snippetFor).
 *
 * Every write is one transaction (or a savepoint of the caller's) that first takes a
 * transaction-scoped advisory lock on the project's key, so writes to one project run one after
 * the other — two partial reindexes of one file cannot both delete the old rows and then both
 * insert — while queries read a committed state without waiting.
 */
export class PgVectorIndex implements VectorIndex {
  constructor(private readonly tx: PgUnitOfWork) {}

  fullReindex(projectId: string, files: readonly ProjectFile[]): Promise<void> {
    const prepared = prepareIndex(files);
    return this.tx.atomically(async (manager) => {
      await lockKeys(manager, [projectId]);
      await sql(manager, 'DELETE FROM vector_chunks WHERE project_id = $1', [projectId]);
      await insertChunks(manager, projectId, prepared.chunks);
    });
  }

  partialReindex(projectId: string, changed: readonly ProjectFile[], removed: readonly string[]): Promise<void> {
    const prepared = prepareIndex(changed);
    const drop = normalizeRemovedPaths(removed);
    const exact = [...new Set([...drop, ...prepared.paths])];
    // A folder takes what is under it; the root ('.') everything (every path starts with '').
    const prefixes = drop.map((path) => (path === '.' ? '' : `${path}/`));
    return this.tx.atomically(async (manager) => {
      await lockKeys(manager, [projectId]);
      if (exact.length > 0) {
        await sql(
          manager,
          `DELETE FROM vector_chunks
            WHERE project_id = $1
              AND (path = ANY($2::text[]) OR EXISTS (SELECT 1 FROM unnest($3::text[]) AS p(prefix) WHERE starts_with(vector_chunks.path, p.prefix)))`,
          [projectId, exact, prefixes],
        );
      }
      await insertChunks(manager, projectId, prepared.chunks);
    });
  }

  cloneTemplate(projectId: string, templateId: string): Promise<boolean> {
    return this.tx.atomically(async (manager) => {
      // Both keys, in one order for every caller (no deadlock): the template cannot change mid-copy.
      await lockKeys(manager, [projectId, templateId]);
      const found = await sql<{ found: boolean }>(manager, 'SELECT EXISTS (SELECT 1 FROM vector_chunks WHERE project_id = $1) AS found', [templateId]);
      if (!found.rows[0]?.found) return false;
      if (projectId === templateId) return true;
      await sql(manager, 'DELETE FROM vector_chunks WHERE project_id = $1', [projectId]);
      await sql(
        manager,
        `INSERT INTO vector_chunks (project_id, path, chunk, start_line, content, search_text)
         SELECT $1, path, chunk, start_line, content, search_text FROM vector_chunks WHERE project_id = $2`,
        [projectId, templateId],
      );
      return true;
    });
  }

  async query(projectId: string, text: string, limit: number = DEFAULT_VECTOR_QUERY_LIMIT): Promise<readonly VectorMatch[]> {
    assertQueryLimit(limit);
    const terms = queryTerms(text);
    if (terms.length === 0) return [];
    // Terms are letters and digits only (searchTerms), so joining them with '|' is a valid tsquery.
    const { rows } = await sql<ChunkRow>(
      this.tx.manager(),
      `SELECT path, chunk, content, score FROM (
         SELECT DISTINCT ON (path) path, chunk, content, ts_rank_cd(tsv, query) AS score
           FROM vector_chunks, to_tsquery('simple', $2) AS query
          WHERE project_id = $1 AND tsv @@ query
          ORDER BY path, score DESC, chunk
       ) best
       ORDER BY score DESC, path
       LIMIT $3`,
      [projectId, terms.join(' | '), limit],
    );
    return bestPerFile(
      rows.map((row) => ({ path: row.path, index: row.chunk, content: row.content, score: Number(row.score) })),
      terms,
      limit,
    );
  }

  async listFiles(projectId: string): Promise<readonly IndexedFileSummary[]> {
    const { rows } = await sql<{ path: string; chunks: number }>(
      this.tx.manager(),
      'SELECT path, count(*)::int AS chunks FROM vector_chunks WHERE project_id = $1 GROUP BY path ORDER BY path',
      [projectId],
    );
    return rows.map((row) => ({ path: row.path, chunks: row.chunks }));
  }

  remove(projectId: string): Promise<void> {
    return this.tx.atomically(async (manager) => {
      await lockKeys(manager, [projectId]);
      await sql(manager, 'DELETE FROM vector_chunks WHERE project_id = $1', [projectId]);
    });
  }
}

/** Transaction-scoped advisory locks on index keys, taken in sorted order. */
async function lockKeys(manager: EntityManager, keys: readonly string[]): Promise<void> {
  for (const key of [...new Set(keys)].sort()) {
    await sql(manager, 'SELECT pg_advisory_xact_lock(hashtext($1))', [`kiln:vector:${key}`]);
  }
}

async function insertChunks(manager: EntityManager, projectId: string, chunks: readonly FileChunk[]): Promise<void> {
  let batch: FileChunk[] = [];
  let chars = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await sql(
      manager,
      `INSERT INTO vector_chunks (project_id, path, chunk, start_line, content, search_text)
       SELECT $1, * FROM unnest($2::text[], $3::int[], $4::int[], $5::text[], $6::text[])`,
      [
        projectId,
        batch.map((c) => c.path),
        batch.map((c) => c.index),
        batch.map((c) => c.startLine),
        batch.map((c) => c.content),
        batch.map((c) => c.searchText),
      ],
    );
    batch = [];
    chars = 0;
  };
  for (const chunk of chunks) {
    batch.push(chunk);
    chars += chunk.content.length + chunk.searchText.length;
    if (batch.length >= BATCH_ROWS || chars >= BATCH_CHARS) await flush();
  }
  await flush();
}

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { searchTerms } from '@kiln/domain';
import { vectorIndexContract } from '@kiln/domain/contracts';
import fc from 'fast-check';
import { PgUnitOfWork } from './pg-unit-of-work.js';
import { PgVectorIndex } from './pg-vector-index.adapter.js';
import { type TestDatabase, createTestDatabase } from './testing/test-database.js';

vectorIndexContract('postgres', async () => {
  const db = await createTestDatabase();
  return { index: new PgVectorIndex(new PgUnitOfWork(db.dataSource)), close: () => db.drop() };
});

describe('PgVectorIndex on PostgreSQL', () => {
  let db: TestDatabase;
  let index: PgVectorIndex;
  let tx: PgUnitOfWork;

  beforeAll(async () => {
    db = await createTestDatabase();
    tx = new PgUnitOfWork(db.dataSource);
    index = new PgVectorIndex(tx);
  });
  afterAll(async () => {
    await db.drop();
  });

  it('searches through the GIN index on the generated tsvector', async () => {
    const rows: { indexdef: string }[] = await db.dataSource.query(
      `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = 'vector_chunks' ORDER BY indexname`,
      [db.schema],
    );
    expect(rows.map((r) => r.indexdef.replace(/ ON \S+\./, ' ON '))).toEqual([
      'CREATE UNIQUE INDEX vector_chunks_pkey ON vector_chunks USING btree (project_id, path, chunk)',
      'CREATE INDEX vector_chunks_tsv_idx ON vector_chunks USING gin (tsv)',
    ]);
  });

  it('PostgreSQL reads every search term as exactly that lexeme (the two adapters agree on terms)', async () => {
    // Code and prose as projects hold them: ASCII, accented Latin, Cyrillic, CJK. (Characters the
    // server's locale does not count as letters, e.g. Siyaq numerals, are dropped by PostgreSQL:
    // such a term matches nothing there, which is harmless.)
    const char = fc.constantFrom(...' \n\t_-./:;,(){}[]<>=+*&|!?\'"`$#@%^~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéèêüößñçøåÉÜÑ привет漢字'.split(''));
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: char, maxLength: 60 }), async (text) => {
        const terms = searchTerms(text);
        if (terms.length === 0) return;
        const [row] = (await db.dataSource.query(`SELECT tsvector_to_array(to_tsvector('simple', $1)) AS lexemes`, [terms.join(' ')])) as {
          lexemes: string[];
        }[];
        expect([...(row?.lexemes ?? [])].sort()).toEqual([...new Set(terms)].sort());
      }),
      { numRuns: 200 },
    );
  });

  it('rolls a reindex back with the caller’s transaction', async () => {
    const id = 'rollback-project';
    await index.fullReindex(id, [{ path: 'src/a.ts', content: 'export const kept = 1;' }]);
    await expect(
      tx.run(async () => {
        await index.fullReindex(id, [{ path: 'src/b.ts', content: 'export const lost = 1;' }]);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await index.listFiles(id)).toEqual([{ path: 'src/a.ts', chunks: 1 }]);
  });

  it('indexes a project of a few thousand chunks in batches', async () => {
    const files = Array.from({ length: 120 }, (_, i) => ({
      path: `src/generated/file${i}.ts`,
      content: Array.from({ length: 1200 }, (_, l) => `export const value${i}_${l} = ${l}; // searchable row`).join('\n'),
    }));
    await index.fullReindex('bulk-project', files);
    const listed = await index.listFiles('bulk-project');
    expect(listed).toHaveLength(120);
    expect(listed.reduce((sum, f) => sum + f.chunks, 0)).toBeGreaterThan(2_000);
    const results = await index.query('bulk-project', 'value7_1100');
    expect(results).toHaveLength(10);
    expect(results[0]).toMatchObject({ path: 'src/generated/file7.ts', snippet: expect.stringMatching(/^export const value7_1100 = 1100;/) });
  }, 30_000);
});

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The VectorIndex's chunks (PgVectorIndex): one row per chunk of an indexed file. `search_text`
 * holds the domain's searchTerms (identifiers already split, lower-cased, letters and digits
 * only); `tsv` is derived from it with the 'simple' configuration (no stemming, no stop words:
 * the domain drops those) and searched through a GIN index.
 *
 * `project_id` is text, not uuid: keys are project ids and template ids ('template:<name>'), and
 * there is no foreign key for the same reason (a project's index is dropped by VectorIndex.remove).
 */
export class VectorIndex1795570000000 implements MigrationInterface {
  name = 'VectorIndex1795570000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE vector_chunks (
        project_id  text    NOT NULL,
        path        text    NOT NULL COLLATE "C",
        chunk       integer NOT NULL CONSTRAINT vector_chunks_chunk_check CHECK (chunk >= 0),
        start_line  integer NOT NULL CONSTRAINT vector_chunks_start_line_check CHECK (start_line >= 1),
        content     text    NOT NULL,
        search_text text    NOT NULL,
        tsv         tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, search_text)) STORED,
        CONSTRAINT vector_chunks_pkey PRIMARY KEY (project_id, path, chunk)
      )`);
    await q.query(`CREATE INDEX vector_chunks_tsv_idx ON vector_chunks USING gin (tsv)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE vector_chunks');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The undo journal of running turns (PgTurnUndoJournal): what a turn is about to change, written
 * before it changes it, so the next start can undo a turn whose process stopped. One row per
 * turn, kind and path — a file's text before the turn (`content` null: it did not exist), a
 * folder that was there, or the `every_file` mark (path '') — and the first row of a key wins
 * (inserts do nothing on conflict). The text is kept as UTF-8 bytes: a project file may hold a
 * NUL character, which a text column refuses. Rows live only while their turn runs.
 *
 * No foreign key to ai_turns: the journal is written by whichever TurnRepository the API uses.
 * Also a partial index for the start-up query of the turns still queued or running.
 */
export class AiTurnUndoJournal1795750000000 implements MigrationInterface {
  name = 'AiTurnUndoJournal1795750000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ai_turn_undo_entries (
        turn_id    text  NOT NULL,
        project_id text  NOT NULL,
        kind       text  NOT NULL CONSTRAINT ai_turn_undo_entries_kind_check CHECK (kind IN ('file', 'folder', 'every_file')),
        path       text  NOT NULL COLLATE "C",
        content    bytea,
        CONSTRAINT ai_turn_undo_entries_pkey PRIMARY KEY (turn_id, kind, path),
        CONSTRAINT ai_turn_undo_entries_content_check CHECK (kind = 'file' OR content IS NULL)
      )`);
    await q.query(`CREATE INDEX ai_turns_in_progress_idx ON ai_turns (created_at, id) WHERE status IN ('queued', 'running')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX ai_turns_in_progress_idx');
    await q.query('DROP TABLE ai_turn_undo_entries');
  }
}

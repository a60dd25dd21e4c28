import { describe, expect, it } from '@jest/globals';
import type { TurnUndoEntry } from '@kiln/domain';
import { turnUndoJournalContract } from '@kiln/domain/contracts';
import { PgTurnUndoJournal } from './pg-turn-undo-journal.adapter.js';
import { PgUnitOfWork } from './pg-unit-of-work.js';
import { freshTestDatabases } from './testing/fresh-test-databases.js';

const database = freshTestDatabases();

turnUndoJournalContract('PgTurnUndoJournal', async () => new PgTurnUndoJournal(new PgUnitOfWork((await database()).dataSource)));

describe('PgTurnUndoJournal', () => {
  it('records a batch all or nothing, even when it takes several statements', async () => {
    const db = await database();
    const journal = new PgTurnUndoJournal(new PgUnitOfWork(db.dataSource));
    const batch: TurnUndoEntry[] = Array.from({ length: 1_200 }, (_, i) => ({ kind: 'file', path: `src/f${i}.ts`, before: `${i}` }));
    // The last statement of the batch fails (a kind the table refuses): nothing of the batch stays.
    batch.push({ kind: 'bogus', path: 'x' } as unknown as TurnUndoEntry);
    await expect(journal.record('t1', 'p1', batch)).rejects.toThrow(/ai_turn_undo_entries_kind_check/);
    expect(await journal.entries('t1')).toEqual([]);
    expect(await db.dataSource.query('SELECT count(*)::int AS n FROM ai_turn_undo_entries')).toEqual([{ n: 0 }]);
  });

  it('stores a file’s text as its UTF-8 bytes and "did not exist" as NULL', async () => {
    const db = await database();
    const journal = new PgTurnUndoJournal(new PgUnitOfWork(db.dataSource));
    await journal.record('t1', 'p1', [
      { kind: 'file', path: 'a.txt', before: 'é' },
      { kind: 'file', path: 'b.txt', before: null },
      { kind: 'folder', path: 'src' },
      { kind: 'every_file' },
    ]);
    const rows: { kind: string; path: string; project_id: string; hex: string | null }[] = await db.dataSource.query(
      `SELECT kind, path, project_id, encode(content, 'hex') AS hex FROM ai_turn_undo_entries ORDER BY kind, path`,
    );
    expect(rows).toEqual([
      { kind: 'every_file', path: '', project_id: 'p1', hex: null },
      { kind: 'file', path: 'a.txt', project_id: 'p1', hex: 'c3a9' },
      { kind: 'file', path: 'b.txt', project_id: 'p1', hex: null },
      { kind: 'folder', path: 'src', project_id: 'p1', hex: null },
    ]);
  });
});

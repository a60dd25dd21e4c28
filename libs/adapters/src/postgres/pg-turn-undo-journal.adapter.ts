import type { TurnUndoEntry, TurnUndoJournal } from '@kiln/domain';
import type { PgUnitOfWork } from './pg-unit-of-work.js';

interface EntryRow {
  kind: TurnUndoEntry['kind'];
  path: string;
  content: Buffer | null;
}

/** Rows per INSERT: a batch may be every file of a project (before a command). */
const ROWS_PER_STATEMENT = 500;

const keyOf = (entry: TurnUndoEntry): string => (entry.kind === 'every_file' ? 'every_file' : `${entry.kind}:${entry.path}`);

function toEntry(row: EntryRow): TurnUndoEntry {
  switch (row.kind) {
    case 'file':
      return { kind: 'file', path: row.path, before: row.content === null ? null : row.content.toString('utf8') };
    case 'folder':
      return { kind: 'folder', path: row.path };
    case 'every_file':
      return { kind: 'every_file' };
    default:
      throw new Error(`Unknown undo journal entry kind: ${String(row.kind)}`);
  }
}

/**
 * `ai_turn_undo_entries`: a running turn's undo journal, keyed by turn, kind and path. A record
 * is one transaction of INSERT … ON CONFLICT DO NOTHING statements (the first pre-image of a path
 * wins, also against a concurrent record); the text goes in as UTF-8 bytes (bytea), so every
 * JavaScript string read from a file comes back exactly, NUL characters included.
 */
export class PgTurnUndoJournal implements TurnUndoJournal {
  constructor(private readonly tx: PgUnitOfWork) {}

  async record(turnId: string, projectId: string, entries: readonly TurnUndoEntry[]): Promise<void> {
    // The first entry of a key within the call wins, as across calls.
    const firsts = new Map<string, TurnUndoEntry>();
    for (const entry of entries) if (!firsts.has(keyOf(entry))) firsts.set(keyOf(entry), entry);
    const rows = [...firsts.values()];
    if (rows.length === 0) return;
    await this.tx.atomically(async (manager) => {
      for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
        const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
        await manager.query(
          `INSERT INTO ai_turn_undo_entries (turn_id, project_id, kind, path, content)
           SELECT $1, $2, e.kind, e.path, e.content FROM unnest($3::text[], $4::text[], $5::bytea[]) AS e(kind, path, content)
           ON CONFLICT (turn_id, kind, path) DO NOTHING`,
          [
            turnId,
            projectId,
            chunk.map((e) => e.kind),
            chunk.map((e) => (e.kind === 'every_file' ? '' : e.path)),
            chunk.map((e) => (e.kind === 'file' && e.before !== null ? Buffer.from(e.before, 'utf8') : null)),
          ],
        );
      }
    });
  }

  async entries(turnId: string): Promise<readonly TurnUndoEntry[]> {
    const rows = (await this.tx.manager().query('SELECT kind, path, content FROM ai_turn_undo_entries WHERE turn_id = $1', [turnId])) as EntryRow[];
    return rows.map(toEntry);
  }

  async clear(turnId: string): Promise<void> {
    await this.tx.manager().query('DELETE FROM ai_turn_undo_entries WHERE turn_id = $1', [turnId]);
  }
}

import type { TurnUndoEntry, TurnUndoJournal } from '../ai/engine/turn-undo-journal.port.js';

/** The key of an entry within its turn: kind and path (a file and a folder may share a path). */
export const turnUndoEntryKey = (entry: TurnUndoEntry): string => (entry.kind === 'every_file' ? 'every_file' : `${entry.kind}:${entry.path}`);

/**
 * TurnUndoJournal in this process's memory, for tests (the API's test persistence module among
 * them: it dies with the process, as the in-memory turns do, so there is never anything to recover).
 * Every method decides synchronously, so a call is all or nothing.
 */
export class InMemoryTurnUndoJournal implements TurnUndoJournal {
  private readonly journals = new Map<string, Map<string, TurnUndoEntry>>();

  async record(turnId: string, _projectId: string, entries: readonly TurnUndoEntry[]): Promise<void> {
    if (entries.length === 0) return;
    let journal = this.journals.get(turnId);
    if (journal === undefined) {
      journal = new Map();
      this.journals.set(turnId, journal);
    }
    for (const entry of entries) {
      const key = turnUndoEntryKey(entry);
      if (!journal.has(key)) journal.set(key, Object.freeze({ ...entry }));
    }
  }

  async entries(turnId: string): Promise<readonly TurnUndoEntry[]> {
    return [...(this.journals.get(turnId)?.values() ?? [])];
  }

  async clear(turnId: string): Promise<void> {
    this.journals.delete(turnId);
  }
}

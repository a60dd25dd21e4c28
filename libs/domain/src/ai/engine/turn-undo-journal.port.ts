/**
 * One fact a turn's undo needs, written down before the turn changes anything it describes:
 * - file: the text a file had before the turn first wrote, deleted or ran a command over it
 *   (`before` null = the file did not exist);
 * - folder: a folder that existed before the turn (folders the turn created are removed on undo);
 * - every_file: every file that existed before the turn is recorded (taken before the turn's
 *   first command, which may change any file), so a file that is not recorded was created by it.
 */
export type TurnUndoEntry =
  | { readonly kind: 'file'; readonly path: string; readonly before: string | null }
  | { readonly kind: 'folder'; readonly path: string }
  | { readonly kind: 'every_file' };

/**
 * The undo journal of running turns, kept where it outlives the process (PostgreSQL): if the API
 * stops while a turn runs, the next start undoes the turn's half-written files from it exactly as
 * the turn itself would have (RecoverInterruptedTurns). A turn records what it is about to change
 * before changing it, and its journal is cleared once the turn's end is stored.
 */
export interface TurnUndoJournal {
  /**
   * Records entries for a turn, all or none (one transaction). An entry that is already recorded
   * for the turn — same kind and path, in an earlier call or earlier in this one — keeps its first
   * value: the first pre-image of a path is the one an undo needs.
   */
  record(turnId: string, projectId: string, entries: readonly TurnUndoEntry[]): Promise<void>;
  /** The turn's entries, in no particular order; none for a turn without a journal. */
  entries(turnId: string): Promise<readonly TurnUndoEntry[]>;
  /** Forgets the turn's journal (a turn without one is fine). */
  clear(turnId: string): Promise<void>;
}

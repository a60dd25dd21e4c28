import type { Turn, TurnStatus } from './turn.entity.js';

export type AddTurnResult = { readonly created: true; readonly turn: Turn } | { readonly created: false; readonly turn: Turn };

/** A project's chat turns, for the turn use cases and the chat history. */
export interface TurnRepository {
  /**
   * Stores a new turn, unless the user already has a turn with its idempotency key: that turn is
   * then returned and nothing is stored. Atomic (two concurrent adds of one key store one turn).
   */
  add(turn: Turn): Promise<AddTurnResult>;
  findById(id: string): Promise<Turn | null>;
  /** The project's turns, oldest first (ties by id). */
  listByProject(projectId: string): Promise<readonly Turn[]>;
  /**
   * Every turn still queued or running, of any project, oldest first (ties by id): at start-up
   * these belong to a process that stopped (RecoverInterruptedTurns).
   */
  listInProgress(): Promise<readonly Turn[]>;
  /** Replaces the stored turn. */
  save(turn: Turn): Promise<void>;
  /** Replaces the stored turn only if its status is still `expected` (compare and set); true when saved. */
  saveIf(turn: Turn, expected: TurnStatus): Promise<boolean>;
  /** Forgets a turn that never started (its first debit was refused), so its key can be used again. */
  remove(id: string): Promise<void>;
}

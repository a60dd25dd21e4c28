import type { Turn, TurnStatus } from '../ai/engine/turn.entity.js';
import type { AddTurnResult, TurnRepository } from '../ai/engine/turn-repository.port.js';

/**
 * TurnRepository in this process's memory, for tests (the API's test persistence module among
 * them). Every method decides synchronously, so concurrent calls cannot interleave inside one.
 */
export class InMemoryTurnRepository implements TurnRepository {
  private readonly turns = new Map<string, Turn>();
  private readonly byKey = new Map<string, string>();

  private static keyOf(userId: string, idempotencyKey: string): string {
    return JSON.stringify([userId, idempotencyKey]);
  }

  async add(turn: Turn): Promise<AddTurnResult> {
    const key = InMemoryTurnRepository.keyOf(turn.userId, turn.idempotencyKey);
    const existing = this.byKey.get(key);
    if (existing !== undefined) {
      const stored = this.turns.get(existing);
      if (stored !== undefined) return { created: false, turn: stored };
    }
    if (this.turns.has(turn.id)) throw new Error(`Turn ${turn.id} already exists`);
    this.turns.set(turn.id, turn);
    this.byKey.set(key, turn.id);
    return { created: true, turn };
  }

  async findById(id: string): Promise<Turn | null> {
    return this.turns.get(id) ?? null;
  }

  async listByProject(projectId: string): Promise<readonly Turn[]> {
    return this.oldestFirst((t) => t.projectId === projectId);
  }

  async listInProgress(): Promise<readonly Turn[]> {
    return this.oldestFirst((t) => t.status === 'queued' || t.status === 'running');
  }

  async save(turn: Turn): Promise<void> {
    if (!this.turns.has(turn.id)) throw new Error(`No turn ${turn.id}`);
    this.turns.set(turn.id, turn);
  }

  async saveIf(turn: Turn, expected: TurnStatus): Promise<boolean> {
    const stored = this.turns.get(turn.id);
    if (stored === undefined || stored.status !== expected) return false;
    this.turns.set(turn.id, turn);
    return true;
  }

  async remove(id: string): Promise<void> {
    const stored = this.turns.get(id);
    if (stored === undefined) return;
    this.turns.delete(id);
    this.byKey.delete(InMemoryTurnRepository.keyOf(stored.userId, stored.idempotencyKey));
  }

  private oldestFirst(keep: (turn: Turn) => boolean): Turn[] {
    return [...this.turns.values()]
      .filter(keep)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}

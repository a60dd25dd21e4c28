import { describe, expect, it } from '@jest/globals';
import { createTurn, type Turn } from '../../ai/engine/turn.entity.js';
import type { TurnRepository } from '../../ai/engine/turn-repository.port.js';

const at = (iso: string) => new Date(iso);

function turn(id: string, overrides: Partial<Turn> = {}): Turn {
  const created = createTurn(
    { userId: 'ana', projectId: 'p1', idempotencyKey: `key-${id}`, message: `Message ${id}`, autoRun: false },
    { id, now: at('2026-01-15T10:00:00.000Z') },
  );
  if (!created.ok) throw new Error(created.error.message);
  return { ...created.value, ...overrides };
}

/** The TurnRepository contract: the in-memory and the PostgreSQL adapters' specs call it. */
export function turnRepositoryContract(name: string, make: () => Promise<TurnRepository>): void {
  describe(`TurnRepository contract: ${name}`, () => {
    it('adds, finds and saves turns', async () => {
      const repo = await make();
      const added = await repo.add(turn('t1'));
      expect(added).toEqual({ created: true, turn: turn('t1') });
      expect(await repo.findById('t1')).toEqual(turn('t1'));
      expect(await repo.findById('nope')).toBeNull();
      await repo.save({ ...turn('t1'), status: 'kept', commitHash: 'abc', plan: { kind: 'edit', modules: [], tasks: [] } });
      expect(await repo.findById('t1')).toMatchObject({ status: 'kept', commitHash: 'abc', plan: { kind: 'edit', modules: [], tasks: [] } });
    });

    it('one turn per user and idempotency key, even when added concurrently', async () => {
      const repo = await make();
      const results = await Promise.all(['a', 'b', 'c'].map((id) => repo.add(turn(id, { idempotencyKey: 'same' }))));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      const winner = results.find((r) => r.created)?.turn.id;
      expect(results.every((r) => r.turn.id === winner)).toBe(true);
      // Another user may use the same key.
      expect((await repo.add(turn('d', { idempotencyKey: 'same', userId: 'ben' }))).created).toBe(true);
    });

    it('lists a project’s turns oldest first', async () => {
      const repo = await make();
      await repo.add(turn('t2', { createdAt: at('2026-01-15T10:00:02.000Z') }));
      await repo.add(turn('t1', { createdAt: at('2026-01-15T10:00:01.000Z') }));
      await repo.add(turn('t3', { projectId: 'p2' }));
      expect((await repo.listByProject('p1')).map((t) => t.id)).toEqual(['t1', 't2']);
    });

    it('lists the turns still queued or running, of every project, oldest first', async () => {
      const repo = await make();
      expect(await repo.listInProgress()).toEqual([]);
      await repo.add(turn('t4', { status: 'running', projectId: 'p2', createdAt: at('2026-01-15T10:00:04.000Z') }));
      await repo.add(turn('t2', { status: 'queued', createdAt: at('2026-01-15T10:00:02.000Z') }));
      await repo.add(turn('t3b', { status: 'running', createdAt: at('2026-01-15T10:00:03.000Z') }));
      await repo.add(turn('t3a', { status: 'queued', createdAt: at('2026-01-15T10:00:03.000Z') }));
      for (const [id, status] of [['k', 'kept'], ['r', 'reverted'], ['f', 'failed'], ['c', 'cancelled'], ['a', 'awaiting_approval']] as const) {
        await repo.add(turn(id, { status, createdAt: at('2026-01-15T10:00:01.000Z') }));
      }
      expect((await repo.listInProgress()).map((t) => t.id)).toEqual(['t2', 't3a', 't3b', 't4']);
      expect((await repo.listInProgress())[0]).toEqual(turn('t2', { status: 'queued', createdAt: at('2026-01-15T10:00:02.000Z') }));
      await repo.save({ ...turn('t2'), status: 'failed', createdAt: at('2026-01-15T10:00:02.000Z') });
      expect((await repo.listInProgress()).map((t) => t.id)).toEqual(['t3a', 't3b', 't4']);
    });

    it('saveIf saves only from the expected status, once under concurrency', async () => {
      const repo = await make();
      await repo.add(turn('t1', { status: 'awaiting_approval' }));
      const outcomes = await Promise.all([
        repo.saveIf({ ...turn('t1'), status: 'queued' }, 'awaiting_approval'),
        repo.saveIf({ ...turn('t1'), status: 'cancelled' }, 'awaiting_approval'),
      ]);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect(await repo.saveIf({ ...turn('t1'), status: 'running' }, 'awaiting_approval')).toBe(false);
      expect(await repo.saveIf({ ...turn('unknown'), status: 'running' }, 'queued')).toBe(false);
    });

    it('remove forgets a turn and frees its key', async () => {
      const repo = await make();
      await repo.add(turn('t1'));
      await repo.remove('t1');
      expect(await repo.findById('t1')).toBeNull();
      expect((await repo.add(turn('t2', { idempotencyKey: 'key-t1' }))).created).toBe(true);
      await repo.remove('never-there');
    });
  });
}


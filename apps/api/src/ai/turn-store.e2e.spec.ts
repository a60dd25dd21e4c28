import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PgTurnRepository, PgTurnUndoJournal } from '@kiln/adapters';
import { type TurnRepository, createTurn } from '@kiln/domain';
import { InMemoryTurnRepository, InMemoryTurnUndoJournal } from '@kiln/domain/testing';
import { type TestApp, startTestApp } from '../testing/e2e.js';
import { TURN_REPOSITORY, TURN_UNDO_JOURNAL } from '../tokens.js';

/** The chat history lives where the rest of the data lives: PostgreSQL (or memory in memory mode). */
describe('turn store wiring', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, 60_000); // a new schema and its migrations: slow while the whole suite runs
  afterAll(async () => {
    await t.close();
  });

  it('binds the persistence module’s TurnRepository and keeps turns there', async () => {
    const turns = t.app.get<TurnRepository>(TURN_REPOSITORY, { strict: false });
    const inMemory = process.env['KILN_E2E_PERSISTENCE'] === 'memory';
    expect(turns).toBeInstanceOf(inMemory ? InMemoryTurnRepository : PgTurnRepository);
    const created = createTurn(
      { userId: 'user-1', projectId: 'project-1', idempotencyKey: 'k1', message: 'Build a todo app', autoRun: true },
      { id: 'turn-1', now: new Date('2026-11-22T04:00:00.000Z') },
    );
    if (!created.ok) throw new Error(created.error.message);
    const turn = created.value;
    expect(await turns.add(turn)).toEqual({ created: true, turn });
    expect(await turns.listByProject('project-1')).toEqual([turn]);
  });

  it('binds the persistence module’s TurnUndoJournal (the undo of running turns outlives the process with PostgreSQL)', () => {
    const inMemory = process.env['KILN_E2E_PERSISTENCE'] === 'memory';
    expect(t.app.get(TURN_UNDO_JOURNAL, { strict: false })).toBeInstanceOf(inMemory ? InMemoryTurnUndoJournal : PgTurnUndoJournal);
  });
});

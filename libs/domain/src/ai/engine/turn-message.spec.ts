// A turn's message is 1..MAX_TURN_MESSAGE_LENGTH characters and not only blanks: the domain's own
// rule (the API's DTO and the web's composer apply the same constant first).
import { describe, expect, it } from '@jest/globals';
import { createTurnTestKit } from './testing/turn-test-kit.js';
import { createTurn, MAX_TURN_MESSAGE_LENGTH } from './turn.entity.js';

const context = { id: 't1', now: new Date('2026-11-25T10:00:00.000Z') };
const input = (message: string) => ({ userId: 'ana', projectId: 'p1', idempotencyKey: 'k1', message, autoRun: false });

describe('a turn’s message', () => {
  it('is taken at 1 and at MAX_TURN_MESSAGE_LENGTH characters', () => {
    expect(createTurn(input('x'), context)).toMatchObject({ ok: true, value: { message: 'x', status: 'queued' } });
    expect(createTurn(input('y'.repeat(MAX_TURN_MESSAGE_LENGTH)), context).ok).toBe(true);
  });

  it.each([
    ['empty', '', 'message: must not be blank'],
    ['only blanks', ' \n\t ', 'message: must not be blank'],
    ['one character too long', 'z'.repeat(MAX_TURN_MESSAGE_LENGTH + 1), `message: must be at most ${MAX_TURN_MESSAGE_LENGTH} characters`],
  ])('is refused when %s, with the API’s VALIDATION_FAILED', (_label, message, detail) => {
    expect(createTurn(input(message), context)).toEqual({ ok: false, error: { code: 'VALIDATION_FAILED', message: 'Validation failed', detail: [detail] } });
  });

  it('refused by RunTurn before anything is stored or charged', async () => {
    const t = await createTurnTestKit();
    const started = await t.runTurn.execute(t.input('w'.repeat(MAX_TURN_MESSAGE_LENGTH + 1)));
    expect(!started.ok && started.error.code).toBe('VALIDATION_FAILED');
    expect(await t.turns.listByProject(t.projectId)).toEqual([]);
    expect(t.assistant.answers).toEqual([]);
  });
});

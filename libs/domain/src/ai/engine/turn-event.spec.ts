import { describe, expect, it } from '@jest/globals';
import { refusedBeforeStart, streamsFrom, type TurnEvent } from './turn-event.js';

const limit = { code: 'CREDITS.LIMIT_REACHED', message: 'No credits left' } as const;

describe('how a turn is answered: an ordinary error or a stream', () => {
  it('a first credit refused before anything started is an ordinary error', () => {
    expect(refusedBeforeStart({ type: 'error', error: limit, started: false })).toEqual(limit);
  });

  it.each<TurnEvent>([
    { type: 'error', error: limit, started: true },
    { type: 'error', error: { code: 'AI.PROVIDER_FAILED', message: 'down' }, started: false },
    { type: 'credits', charged: 1, refunded: 0, creditsRemaining: 4 },
    { type: 'done', status: 'kept', message: 'Done' },
  ])('anything else is part of the stream (%o)', (event) => {
    expect(refusedBeforeStart(event)).toBeNull();
  });

  it('streams from the first credits event on', () => {
    expect(streamsFrom({ type: 'credits', charged: 1, refunded: 0, creditsRemaining: 4 })).toBe(true);
    expect(streamsFrom({ type: 'phase', phase: 'thinking' })).toBe(false);
  });
});

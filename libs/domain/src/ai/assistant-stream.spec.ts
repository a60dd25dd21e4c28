import { describe, expect, it } from '@jest/globals';
import { aiFailure, type CompletionEvent } from './ai-assistant.port.js';
import { drainAssistantStream, failureFromThrown, UNFINISHED_ANSWER } from './assistant-stream.js';

async function* stream(events: readonly CompletionEvent[], thrown?: unknown): AsyncIterable<CompletionEvent> {
  for (const event of events) yield event;
  if (thrown !== undefined) throw thrown;
}

describe('drainAssistantStream', () => {
  it('hands every event before done to onEvent and answers the done event; nothing after it is read', async () => {
    const seen: string[] = [];
    const result = await drainAssistantStream(
      stream([{ type: 'text', text: 'Hel' }, { type: 'text', text: 'lo' }, { type: 'done', finishReason: 'stop' }, { type: 'text', text: 'late' }]),
      UNFINISHED_ANSWER,
      (event) => {
        if (event.type === 'text') seen.push(event.text);
      },
    );
    expect(result).toEqual({ ok: true, value: { type: 'done', finishReason: 'stop' } });
    expect(seen).toEqual(['Hel', 'lo']);
  });

  it('answers an error event as the failure', async () => {
    const failure = aiFailure('AI.ABORTED', 'The request was cancelled.');
    expect(await drainAssistantStream(stream([{ type: 'text', text: 'x' }, { type: 'error', error: failure }]), UNFINISHED_ANSWER)).toEqual({ ok: false, error: failure });
  });

  it('answers a stream that just stops as unfinished, and a throw as a provider failure', async () => {
    expect(await drainAssistantStream(stream([{ type: 'text', text: 'x' }]), UNFINISHED_ANSWER)).toEqual({
      ok: false,
      error: aiFailure('AI.PROVIDER_FAILED', UNFINISHED_ANSWER),
    });
    expect(await drainAssistantStream(stream([], new Error('socket hang up')), UNFINISHED_ANSWER)).toEqual({
      ok: false,
      error: aiFailure('AI.PROVIDER_FAILED', 'socket hang up'),
    });
  });
});

describe('failureFromThrown', () => {
  it('keeps an AiFailure, thrown as it is or as an Error’s cause; anything else is a provider failure', () => {
    const aborted = aiFailure('AI.ABORTED', 'The request was cancelled.');
    expect(failureFromThrown(aborted)).toBe(aborted);
    expect(failureFromThrown(new Error('wrapped', { cause: aborted }))).toBe(aborted);
    expect(failureFromThrown('plain')).toEqual(aiFailure('AI.PROVIDER_FAILED', 'plain'));
  });
});

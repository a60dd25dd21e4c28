import { type Result, err, ok } from '../shared/result.js';
import { type AiFailure, aiFailure } from './ai-assistant.port.js';

/** What a stream of the assistant that stops without its `done` (or an error) is reported as. */
export const UNFINISHED_ANSWER = 'The model stopped without finishing its answer.';
export const UNFINISHED_PLAN = 'The model stopped without finishing its plan.';

const AI_FAILURE_CODES: readonly string[] = ['AI.PROVIDER_FAILED', 'AI.ABORTED', 'AI.DECLINED'];

export function isAiFailure(value: unknown): value is AiFailure {
  return typeof value === 'object' && value !== null && AI_FAILURE_CODES.includes(String((value as { code?: unknown }).code));
}

/** The AiFailure behind something thrown by an assistant call (itself or its `cause`), or a provider failure with its message. */
export function failureFromThrown(error: unknown): AiFailure {
  if (isAiFailure(error)) return error;
  if (error instanceof Error && isAiFailure(error.cause)) return error.cause;
  return aiFailure('AI.PROVIDER_FAILED', error instanceof Error ? error.message : String(error));
}

type Ending = { readonly type: 'done' } | { readonly type: 'error'; readonly error: AiFailure };

/**
 * Reads an assistant stream (plan, task or completion events) to its end, the one way every caller
 * does: each event before the end goes to `onEvent`; the `done` event is the result; an `error`
 * event, a throw, or a stream that just stops (`unfinished` says what was missing) is the failure.
 */
export async function drainAssistantStream<E extends { readonly type: string }>(
  events: AsyncIterable<E>,
  unfinished: string,
  onEvent: (event: Exclude<E, Ending>) => void = () => undefined,
): Promise<Result<Extract<E, { readonly type: 'done' }>, AiFailure>> {
  try {
    for await (const event of events) {
      if (event.type === 'done') return ok(event as Extract<E, { readonly type: 'done' }>);
      if (event.type === 'error') return err((event as unknown as { readonly error: AiFailure }).error);
      onEvent(event as Exclude<E, Ending>);
    }
  } catch (error) {
    return err(failureFromThrown(error));
  }
  return err(aiFailure('AI.PROVIDER_FAILED', unfinished));
}

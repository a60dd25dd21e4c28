// The event stream of an AI turn: the reply to POST /api/projects/{id}/turns (and …/accept) is
// server-sent events, read over fetch and parsed with eventsource-parser as the sandbox feed is.
// docs/ai-api.md § Turn events is the contract; the names below keep its snake_case fields.
import { type AiPhase, isAiPhase } from '@kiln/domain';
import { createParser, type EventSourceParser } from 'eventsource-parser';

export interface TurnModuleDto {
  readonly id: string;
  readonly title: string;
  readonly description: string;
}

export interface TurnTaskDto {
  readonly id: string;
  readonly module_id: string;
  readonly title: string;
  readonly description: string;
}

/** A plan: its modules, its tasks and what running it costs (one credit per task). */
export interface TurnPlanDto {
  readonly kind: 'build' | 'edit';
  readonly modules: readonly TurnModuleDto[];
  readonly tasks: readonly TurnTaskDto[];
  readonly cost: number;
  /** Running it makes a new app that replaces the current one: the builder warns before it runs. */
  readonly replaces_app?: boolean;
}

export type TurnTaskState = 'running' | 'done' | 'failed';
export type TurnOperationType = 'write_file' | 'edit_file' | 'delete_file' | 'rename_file' | 'add_dependency' | 'run_command';
export type TurnOutcome = 'kept' | 'reverted' | 'failed';

export interface TurnCodeErrorDto {
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly severity: 'error' | 'warning';
}

export type TurnEvent =
  | { readonly type: 'turn'; readonly data: { readonly turn_id: string; readonly message: string } }
  | { readonly type: 'phase'; readonly data: { readonly phase: AiPhase } }
  | { readonly type: 'plan'; readonly data: TurnPlanDto }
  | { readonly type: 'awaiting_approval'; readonly data: { readonly turn_id: string; readonly cost: number } }
  | { readonly type: 'task'; readonly data: { readonly task_id: string; readonly index: number; readonly title: string; readonly state: TurnTaskState } }
  | { readonly type: 'text'; readonly data: { readonly task_id: string | null; readonly text: string } }
  | { readonly type: 'operation'; readonly data: { readonly task_id: string | null; readonly type: TurnOperationType; readonly path?: string } }
  | { readonly type: 'checking'; readonly data: { readonly round: number } }
  | {
      readonly type: 'errors';
      readonly data: {
        readonly round: number;
        readonly error_count: number;
        readonly warning_count: number;
        readonly errors: readonly TurnCodeErrorDto[];
        /** 'unavailable': the check could not run (absent from older servers: checked). */
        readonly status?: 'checked' | 'unavailable';
        readonly unavailable_reason?: string;
      };
    }
  | { readonly type: 'credits'; readonly data: { readonly charged: number; readonly refunded: number; readonly credits_remaining: number } }
  | { readonly type: 'done'; readonly data: { readonly status: TurnOutcome; readonly message: string; readonly commit_hash?: string } }
  | { readonly type: 'error'; readonly data: { readonly code: string; readonly detail: string } };

export type TurnEventType = TurnEvent['type'];

const TASK_STATES: readonly string[] = ['running', 'done', 'failed'];
const OUTCOMES: readonly string[] = ['kept', 'reverted', 'failed'];
const OPERATION_TYPES: readonly string[] = ['write_file', 'edit_file', 'delete_file', 'rename_file', 'add_dependency', 'run_command'];

const isString = (value: unknown): value is string => typeof value === 'string';
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const optionalId = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);

function isCodeError(value: unknown): value is TurnCodeErrorDto {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  return isString(e['message']) && isString(e['file']) && isCount(e['line']) && isCount(e['column']);
}

function isPlan(p: Record<string, unknown>): boolean {
  return (p['kind'] === 'build' || p['kind'] === 'edit') && Array.isArray(p['tasks']) && Array.isArray(p['modules']) && isCount(p['cost']);
}

/** One named SSE message as a typed turn event, or null for names and shapes the contract does not have. */
export function parseTurnEvent(name: string | undefined, data: string): TurnEvent | null {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return null;
  const p = payload as Record<string, unknown>;
  switch (name) {
    case 'turn':
      return isString(p['turn_id']) ? { type: 'turn', data: { turn_id: p['turn_id'], message: isString(p['message']) ? p['message'] : '' } } : null;
    case 'phase':
      return isAiPhase(p['phase']) ? { type: 'phase', data: { phase: p['phase'] } } : null;
    case 'plan':
      return isPlan(p) ? { type: 'plan', data: payload as TurnPlanDto } : null;
    case 'awaiting_approval':
      return isString(p['turn_id']) && isCount(p['cost']) ? { type: 'awaiting_approval', data: { turn_id: p['turn_id'], cost: p['cost'] } } : null;
    case 'task': {
      const id = optionalId(p['task_id']);
      if (id === null || !isCount(p['index']) || !TASK_STATES.includes(p['state'] as string)) return null;
      return { type: 'task', data: { task_id: id, index: p['index'], title: isString(p['title']) ? p['title'] : '', state: p['state'] as TurnTaskState } };
    }
    case 'text':
      return isString(p['text']) ? { type: 'text', data: { task_id: optionalId(p['task_id']), text: p['text'] } } : null;
    case 'operation':
      return OPERATION_TYPES.includes(p['type'] as string)
        ? {
            type: 'operation',
            data: { task_id: optionalId(p['task_id']), type: p['type'] as TurnOperationType, ...(isString(p['path']) ? { path: p['path'] } : {}) },
          }
        : null;
    case 'checking':
      return isCount(p['round']) ? { type: 'checking', data: { round: p['round'] } } : null;
    case 'errors': {
      if (!isCount(p['error_count']) || !isCount(p['warning_count'])) return null;
      const errors = Array.isArray(p['errors']) ? (p['errors'] as unknown[]).filter(isCodeError) : [];
      return {
        type: 'errors',
        data: {
          round: isCount(p['round']) ? p['round'] : 0,
          error_count: p['error_count'],
          warning_count: p['warning_count'],
          errors: errors.map((e) => ({ ...e, severity: e.severity === 'warning' ? 'warning' : 'error' })),
          ...(p['status'] === 'unavailable'
            ? { status: 'unavailable' as const, unavailable_reason: typeof p['unavailable_reason'] === 'string' ? p['unavailable_reason'] : '' }
            : {}),
        },
      };
    }
    case 'credits':
      return isCount(p['credits_remaining'])
        ? {
            type: 'credits',
            data: { charged: isCount(p['charged']) ? p['charged'] : 0, refunded: isCount(p['refunded']) ? p['refunded'] : 0, credits_remaining: p['credits_remaining'] },
          }
        : null;
    case 'done':
      return OUTCOMES.includes(p['status'] as string)
        ? {
            type: 'done',
            data: {
              status: p['status'] as TurnOutcome,
              message: isString(p['message']) ? p['message'] : '',
              ...(isString(p['commit_hash']) && p['commit_hash'] !== '' ? { commit_hash: p['commit_hash'] } : {}),
            },
          }
        : null;
    case 'error':
      return {
        type: 'error',
        data: { code: isString(p['code']) ? p['code'] : 'UNKNOWN', detail: isString(p['detail']) ? p['detail'] : isString(p['message']) ? p['message'] : 'Request failed' },
      };
    default:
      return null;
  }
}

/**
 * Bytes in, turn events out: UTF-8 decoded across chunk boundaries, SSE framing by
 * eventsource-parser, unknown events and comments (`: ping`) skipped. Chunks may split a
 * line, a field or a multi-byte character anywhere.
 */
export class TurnStreamDecoder {
  private readonly decoder = new TextDecoder();
  private readonly parser: EventSourceParser;
  private pending: TurnEvent[] = [];

  constructor() {
    this.parser = createParser({
      onEvent: (message) => {
        const event = parseTurnEvent(message.event, message.data);
        if (event !== null) this.pending.push(event);
      },
    });
  }

  /** The events completed by this chunk. */
  push(chunk: Uint8Array): TurnEvent[] {
    this.parser.feed(this.decoder.decode(chunk, { stream: true }));
    return this.take();
  }

  /** The stream ended: an event still missing its blank line is complete now. */
  end(): TurnEvent[] {
    const rest = this.decoder.decode();
    if (rest !== '') this.parser.feed(rest);
    this.parser.feed('\n\n');
    return this.take();
  }

  private take(): TurnEvent[] {
    const events = this.pending;
    this.pending = [];
    return events;
  }
}

/**
 * Reads a turn's reply body as events, in order, as they arrive. Aborting `signal` cancels the
 * body and the iteration throws the abort reason.
 */
export async function* readTurnStream(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<TurnEvent, void, undefined> {
  const reader = body.getReader();
  const decoder = new TurnStreamDecoder();
  let finished = false;
  const stop = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', stop);
  try {
    for (;;) {
      throwIfAborted(signal);
      const { done, value } = await reader.read();
      throwIfAborted(signal);
      if (done) {
        finished = true;
        yield* decoder.end();
        return;
      }
      yield* decoder.push(value);
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    // The reader stopped early (abort, a failure, or the caller left the loop): let the server know.
    if (!finished) stop();
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

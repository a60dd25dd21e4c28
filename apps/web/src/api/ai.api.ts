// AI turns and helpers: /api/projects/{id}/turns… and /api/ai/…. The wire contract is
// docs/ai-api.md; the names below keep its snake_case fields.
import { inject, injectable } from 'inversify';
import { ApiError, type HttpClient, type StreamingHttpClient, TYPES } from '../app/ports';
import { type TurnEvent, type TurnPlanDto, readTurnStream } from './turn-stream';

export interface TurnInput {
  readonly message: string;
  /** One per message: a request that reaches the server twice is one turn, charged once. */
  readonly idempotencyKey: string;
  /** Run a plan of several tasks without waiting for approval. */
  readonly autoRun: boolean;
  /** Files attached to the message (uploaded attachments' ids). */
  readonly attachmentIds?: readonly string[];
}

/** GET /api/projects/{id}/turns: one turn of the chat history, oldest first. */
export interface TurnHistoryDto {
  readonly id: string;
  readonly message: string;
  /** 'kept', 'reverted', 'failed', 'awaiting_approval', 'cancelled', 'running'… (read leniently). */
  readonly status: string;
  readonly reply: string | null;
  /** The last word on a finished turn (done's message, a failure's detail), when the server sends it. */
  readonly outcome?: string | null;
  readonly plan: TurnPlanDto | null;
  readonly created_at: string;
  readonly commit_hash: string | null;
  /** Why a failed turn failed, when the server sends it ('AI.DECLINED': the assistant cannot do it). */
  readonly failure_code?: string | null;
}

export interface AiModelDto {
  readonly provider: string;
  readonly id: string;
  readonly offline: boolean;
}

/**
 * A plan limit stopped the turn before it started (402, e.g. `CREDITS.LIMIT_REACHED` with
 * `limit_type: 'credit'`). An ApiError, so the upgrade dialog's `openFor` reads it too.
 */
export class LimitReachedError extends ApiError {
  readonly limitType: string;

  constructor(source: ApiError) {
    super(source.message, source.status, source.code, source.body);
    this.name = 'LimitReachedError';
    const body = typeof source.body === 'object' && source.body !== null ? (source.body as Record<string, unknown>) : {};
    this.limitType = typeof body['limit_type'] === 'string' ? body['limit_type'] : 'credit';
  }
}

/** The builder chat's port (TYPES.AiApi). */
export interface AiApi {
  /**
   * Sends a message. Resolves once the reply has started, with its events as they arrive;
   * rejects with LimitReachedError (402) or ApiError before any streaming. Never retried.
   */
  turn(projectId: string, input: TurnInput, signal?: AbortSignal): Promise<AsyncIterable<TurnEvent>>;
  /** Runs a plan that waited for approval; the same events as a turn. */
  accept(projectId: string, turnId: string, signal?: AbortSignal): Promise<AsyncIterable<TurnEvent>>;
  /** Drops a plan that waited for approval (nothing is charged). */
  cancel(projectId: string, turnId: string): Promise<void>;
  /** Stops a queued or running turn; resolves with the turn as it ended (a finished turn as it is). */
  stop(projectId: string, turnId: string): Promise<TurnHistoryDto>;
  history(projectId: string): Promise<readonly TurnHistoryDto[]>;
  /** A clearer, more complete version of the prompt. */
  enhancePrompt(prompt: string, templateId?: string): Promise<string>;
  model(): Promise<AiModelDto>;
}

const turnsPath = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}/turns`;

@injectable()
export class HttpAiApi implements AiApi {
  constructor(
    @inject(TYPES.Http) private readonly http: HttpClient,
    @inject(TYPES.StreamingHttp) private readonly streaming: StreamingHttpClient,
  ) {}

  turn(projectId: string, input: TurnInput, signal?: AbortSignal): Promise<AsyncIterable<TurnEvent>> {
    const files = input.attachmentIds !== undefined && input.attachmentIds.length > 0 ? { attachment_ids: input.attachmentIds } : {};
    return this.open(turnsPath(projectId), { message: input.message, idempotency_key: input.idempotencyKey, auto_run: input.autoRun, ...files }, signal);
  }

  accept(projectId: string, turnId: string, signal?: AbortSignal): Promise<AsyncIterable<TurnEvent>> {
    return this.open(`${turnsPath(projectId)}/${encodeURIComponent(turnId)}/accept`, undefined, signal);
  }

  async cancel(projectId: string, turnId: string): Promise<void> {
    await this.http.post(`${turnsPath(projectId)}/${encodeURIComponent(turnId)}/cancel`);
  }

  stop(projectId: string, turnId: string): Promise<TurnHistoryDto> {
    return this.http.post<TurnHistoryDto>(`${turnsPath(projectId)}/${encodeURIComponent(turnId)}/stop`);
  }

  history(projectId: string): Promise<readonly TurnHistoryDto[]> {
    return this.http.get<readonly TurnHistoryDto[]>(turnsPath(projectId));
  }

  async enhancePrompt(prompt: string, templateId?: string): Promise<string> {
    const reply = await this.http.post<{ prompt: string }>('/api/ai/enhance-prompt', templateId === undefined ? { prompt } : { prompt, template_id: templateId });
    return reply.prompt;
  }

  model(): Promise<AiModelDto> {
    return this.http.get<AiModelDto>('/api/ai/model');
  }

  private async open(path: string, body: unknown, signal: AbortSignal | undefined): Promise<AsyncIterable<TurnEvent>> {
    let stream: ReadableStream<Uint8Array>;
    try {
      stream = await this.streaming.postStream(path, body, { signal, retry: false });
    } catch (error) {
      if (error instanceof ApiError && error.status === 402) throw new LimitReachedError(error);
      throw error;
    }
    return readTurnStream(stream, signal);
  }
}

import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { ApiError, type HttpClient, type RequestOptions, type StreamingHttpClient } from '../app/ports';
import { HttpAiApi, LimitReachedError } from './ai.api';
import type { TurnEvent } from './turn-stream';

class RecordingHttp implements HttpClient {
  readonly calls: [string, string, unknown?][] = [];
  reply: unknown = {};
  async get<T>(path: string): Promise<T> {
    this.calls.push(['GET', path]);
    return this.reply as T;
  }
  async post<T>(path: string, body?: unknown): Promise<T> {
    this.calls.push(['POST', path, body]);
    return this.reply as T;
  }
  async patch<T>(): Promise<T> {
    throw new Error('unused');
  }
  async delete<T>(): Promise<T> {
    throw new Error('unused');
  }
}

class RecordingStreams implements StreamingHttpClient {
  readonly calls: { path: string; body: unknown; options?: RequestOptions }[] = [];
  text = 'event: phase\ndata: {"phase":"thinking"}\n\nevent: done\ndata: {"status":"kept","message":"ok"}\n\n';
  failure: Error | null = null;
  async postStream(path: string, body?: unknown, options?: RequestOptions): Promise<ReadableStream<Uint8Array>> {
    this.calls.push({ path, body, options });
    if (this.failure) throw this.failure;
    return new Response(this.text).body as ReadableStream<Uint8Array>;
  }
}

async function collect(events: AsyncIterable<TurnEvent>): Promise<TurnEvent[]> {
  const all: TurnEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('HttpAiApi', () => {
  it('posts a turn once (no retries) and streams its events', async () => {
    const streams = new RecordingStreams();
    const api = new HttpAiApi(new RecordingHttp(), streams);

    const events = await collect(await api.turn('p 1', { message: 'Add a footer', idempotencyKey: 'k1', autoRun: true }));

    expect(streams.calls).toEqual([
      { path: '/api/projects/p%201/turns', body: { message: 'Add a footer', idempotency_key: 'k1', auto_run: true }, options: { signal: undefined, retry: false } },
    ]);
    expect(events.map((e) => e.type)).toEqual(['phase', 'done']);
  });

  it('accepts a waiting plan through its own stream', async () => {
    const streams = new RecordingStreams();
    await collect(await new HttpAiApi(new RecordingHttp(), streams).accept('p1', 't/1'));
    expect(streams.calls[0]?.path).toBe('/api/projects/p1/turns/t%2F1/accept');
    expect(streams.calls[0]?.options?.retry).toBe(false);
  });

  it('turns a 402 into LimitReachedError with its limit type', async () => {
    const streams = new RecordingStreams();
    streams.failure = new ApiError('You have no credits left', 402, 'CREDITS.LIMIT_REACHED', { code: 'CREDITS.LIMIT_REACHED', limit_type: 'credit' });
    const error = await new HttpAiApi(new RecordingHttp(), streams).turn('p1', { message: 'x', idempotencyKey: 'k', autoRun: false }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LimitReachedError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ limitType: 'credit', status: 402, code: 'CREDITS.LIMIT_REACHED', message: 'You have no credits left' });
  });

  it('passes other failures through unchanged', async () => {
    const streams = new RecordingStreams();
    const failure = new ApiError('Not found', 404, 'PROJECTS.NOT_FOUND', null);
    streams.failure = failure;
    await expect(new HttpAiApi(new RecordingHttp(), streams).turn('p1', { message: 'x', idempotencyKey: 'k', autoRun: false })).rejects.toBe(failure);
  });

  it('calls cancel, history, enhance-prompt and model', async () => {
    const http = new RecordingHttp();
    const api = new HttpAiApi(http, new RecordingStreams());
    await api.cancel('p1', 't1');
    http.reply = [];
    await expect(api.history('p1')).resolves.toEqual([]);
    http.reply = { prompt: 'A better prompt' };
    await expect(api.enhancePrompt('a prompt')).resolves.toBe('A better prompt');
    await api.enhancePrompt('a prompt', 'tpl');
    http.reply = { provider: 'offline', id: 'kiln-offline-1', offline: true };
    await expect(api.model()).resolves.toEqual({ provider: 'offline', id: 'kiln-offline-1', offline: true });
    expect(http.calls).toEqual([
      ['POST', '/api/projects/p1/turns/t1/cancel', undefined],
      ['GET', '/api/projects/p1/turns'],
      ['POST', '/api/ai/enhance-prompt', { prompt: 'a prompt' }],
      ['POST', '/api/ai/enhance-prompt', { prompt: 'a prompt', template_id: 'tpl' }],
      ['GET', '/api/ai/model'],
    ]);
  });
});

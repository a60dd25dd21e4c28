// The sandbox's realtime feed: GET /api/sandbox/{id}/events as server-sent events over a fetch
// stream (EventSource cannot send the bearer header), parsed with eventsource-parser.
// docs/sandbox-api.md § Realtime feed; SPEC §4 socket states, SPEC §9 realtime constants.
import { createParser } from 'eventsource-parser';
import type { FetchFn } from './http';
import type { SandboxStatusDto } from './sandbox.api';

/** SPEC §9: reconnect after 1, 2, 5, then every 10 s; back to the start after a good connection. */
export const RECONNECT_DELAYS_MS: readonly number[] = [1000, 2000, 5000, 10_000];
/** SPEC §9 realtime timeout: a connection whose reply has not started by then is given up. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** SPEC §9 heartbeat: the server sends `: ping` every 30 s. */
export const HEARTBEAT_MS = 30_000;
/** Silence for this long (a missed heartbeat plus the timeout) means the stream is dead. */
export const SILENCE_LIMIT_MS = HEARTBEAT_MS + CONNECT_TIMEOUT_MS;

/** SPEC §4 socket states. */
export type FeedState = 'connecting' | 'open' | 'closing' | 'closed';

export type FilesChangedReason = 'write' | 'delete' | 'create-directory' | 'rename' | 'restore' | 'command';

export type SandboxFeedEvent =
  | { readonly type: 'status'; readonly data: SandboxStatusDto }
  | { readonly type: 'files-changed'; readonly data: { readonly paths: readonly string[]; readonly reason: FilesChangedReason } }
  | { readonly type: 'command-output'; readonly data: { readonly command_id: string; readonly stream: 'stdout' | 'stderr'; readonly text: string } }
  | { readonly type: 'command-exit'; readonly data: { readonly command_id: string; readonly exit_code: number; readonly timed_out: boolean } };

export interface FeedListener {
  onEvent(event: SandboxFeedEvent): void;
  onState(state: FeedState): void;
}

export interface FeedConnection {
  /** Stops the feed for good: closing, then closed; no reconnect. */
  close(): void;
}

/** The port the builder uses (TYPES.SandboxFeed). */
export interface SandboxFeed {
  connect(projectId: string, listener: FeedListener): FeedConnection;
}

/** Cancellable timeouts, so tests can run the reconnect schedule by hand. */
export interface FeedScheduler {
  /** Calls `run` once after `ms`; returns a function that cancels it. */
  after(ms: number, run: () => void): () => void;
}

export const browserFeedScheduler: FeedScheduler = {
  after(ms, run) {
    const handle = setTimeout(run, ms);
    return () => clearTimeout(handle);
  },
};

export interface FeedDeps {
  readonly fetch: FetchFn;
  readonly accessToken: () => Promise<string | null>;
  readonly scheduler: FeedScheduler;
  readonly baseUrl?: string;
  readonly log?: (message: string, detail?: unknown) => void;
}

/** The delay before reconnect number `attempt` (0-based): 1, 2, 5, 10, 10, … seconds. */
export function reconnectDelay(attempt: number): number {
  return RECONNECT_DELAYS_MS[Math.min(Math.max(attempt, 0), RECONNECT_DELAYS_MS.length - 1)] as number;
}

/** One named SSE message as a typed feed event, or null for names and shapes we do not know. */
export function parseFeedEvent(name: string | undefined, data: string): SandboxFeedEvent | null {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof payload !== 'object' || payload === null) return null;
  const p = payload as Record<string, unknown>;
  switch (name) {
    case 'status':
      return typeof p['status'] === 'string' ? { type: 'status', data: payload as SandboxStatusDto } : null;
    case 'files-changed':
      return Array.isArray(p['paths']) ? { type: 'files-changed', data: payload as Extract<SandboxFeedEvent, { type: 'files-changed' }>['data'] } : null;
    case 'command-output':
      return typeof p['command_id'] === 'string' && typeof p['text'] === 'string'
        ? { type: 'command-output', data: payload as Extract<SandboxFeedEvent, { type: 'command-output' }>['data'] }
        : null;
    case 'command-exit':
      return typeof p['command_id'] === 'string' && typeof p['exit_code'] === 'number'
        ? { type: 'command-exit', data: payload as Extract<SandboxFeedEvent, { type: 'command-exit' }>['data'] }
        : null;
    default:
      return null;
  }
}

/**
 * The feed over fetch. Each connection asks for a fresh access token, reads the body as it
 * arrives and hands every event to the listener. A refused reply, a network failure, a stream
 * that ends, a reply that does not start within 10 s or 40 s of silence (no event, no ping)
 * closes the connection and schedules the next one after 1, 2, 5, then 10 s; a connection that
 * opens resets that schedule.
 */
export class FetchSandboxFeed implements SandboxFeed {
  constructor(private readonly deps: FeedDeps) {}

  connect(projectId: string, listener: FeedListener): FeedConnection {
    return new FeedSession(this.deps, `${this.deps.baseUrl ?? ''}/api/sandbox/${encodeURIComponent(projectId)}/events`, listener);
  }
}

class FeedSession implements FeedConnection {
  private state: FeedState = 'closed';
  private stopped = false;
  private attempt = 0;
  private controller: AbortController | null = null;
  private cancelTimer: (() => void) | null = null;
  private cancelWatchdog: (() => void) | null = null;

  constructor(
    private readonly deps: FeedDeps,
    private readonly url: string,
    private readonly listener: FeedListener,
  ) {
    void this.open();
  }

  close(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.cancelWatchdog?.();
    this.cancelWatchdog = null;
    this.setState('closing');
    this.controller?.abort();
    this.controller = null;
    this.setState('closed');
  }

  private setState(state: FeedState): void {
    if (this.state === state) return;
    this.state = state;
    this.listener.onState(state);
  }

  private async open(): Promise<void> {
    if (this.stopped) return;
    this.setState('connecting');
    const controller = new AbortController();
    this.controller = controller;
    // Nothing until the reply starts (SPEC §9 timeout), then silence longer than a heartbeat.
    this.watch(controller, CONNECT_TIMEOUT_MS);
    try {
      const token = await this.deps.accessToken();
      if (controller.signal.aborted) throw new Error('aborted');
      const headers: Record<string, string> = { Accept: 'text/event-stream' };
      if (token) headers['Authorization'] = `Bearer ${token}`;
      const response = await this.deps.fetch(this.url, { method: 'GET', headers, signal: controller.signal, credentials: 'same-origin', cache: 'no-store' });
      if (!response.ok || response.body === null) throw new Error(`Realtime feed refused: HTTP ${response.status}`);
      this.attempt = 0;
      this.setState('open');
      this.watch(controller, SILENCE_LIMIT_MS);
      await this.read(response.body, controller);
      if (!controller.signal.aborted) throw new Error('Realtime feed ended');
    } catch (error) {
      if (this.stopped) return;
      this.deps.log?.('Realtime feed disconnected', error);
    } finally {
      if (this.controller === controller) this.controller = null;
      controller.abort();
    }
    this.retry();
  }

  private async read(body: ReadableStream<Uint8Array>, controller: AbortController): Promise<void> {
    const parser = createParser({
      onEvent: (message) => {
        const event = parseFeedEvent(message.event, message.data);
        if (event !== null && !this.stopped) this.listener.onEvent(event);
      },
    });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const onAbort = () => void reader.cancel().catch(() => undefined);
    controller.signal.addEventListener('abort', onAbort);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || controller.signal.aborted) return;
        this.watch(controller, SILENCE_LIMIT_MS); // any bytes, a ping included, prove it is alive
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } finally {
      controller.signal.removeEventListener('abort', onAbort);
    }
  }

  /** (Re)arms the watchdog: no progress within `ms` aborts this connection. */
  private watch(controller: AbortController, ms: number): void {
    this.cancelWatchdog?.();
    this.cancelWatchdog = this.deps.scheduler.after(ms, () => controller.abort());
  }

  private retry(): void {
    this.cancelWatchdog?.();
    this.cancelWatchdog = null;
    if (this.stopped) return;
    this.setState('closed');
    const delay = reconnectDelay(this.attempt);
    this.attempt += 1;
    this.cancelTimer = this.deps.scheduler.after(delay, () => {
      this.cancelTimer = null;
      void this.open();
    });
  }
}

import { describe, expect, it } from '@jest/globals';
import type { FetchFn } from './http';
import {
  CONNECT_TIMEOUT_MS,
  type FeedScheduler,
  type FeedState,
  FetchSandboxFeed,
  SILENCE_LIMIT_MS,
  type SandboxFeedEvent,
  parseFeedEvent,
  reconnectDelay,
} from './sandbox-feed';

/** Timeouts run by hand: `fire()` runs the oldest pending one. */
class ManualScheduler implements FeedScheduler {
  readonly pending: { ms: number; run: () => void }[] = [];
  after(ms: number, run: () => void): () => void {
    const entry = { ms, run };
    this.pending.push(entry);
    return () => {
      const i = this.pending.indexOf(entry);
      if (i >= 0) this.pending.splice(i, 1);
    };
  }
  /** Runs the pending timeout of `ms` (the reconnect or a watchdog). */
  fire(ms: number): void {
    const entry = this.pending.find((p) => p.ms === ms);
    if (!entry) throw new Error(`no timeout of ${ms} ms pending (have ${this.pending.map((p) => p.ms).join(', ')})`);
    this.pending.splice(this.pending.indexOf(entry), 1);
    entry.run();
  }
  get delays(): number[] {
    return this.pending.map((p) => p.ms);
  }
}

/** A streaming body the test writes into. */
function stream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const encoder = new TextEncoder();
  return {
    response: new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }),
    write: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

const settle = async () => {
  for (let i = 0; i < 30; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

function setUp(replies: (() => Promise<Response>)[]) {
  const scheduler = new ManualScheduler();
  const requests: { url: string; init: RequestInit }[] = [];
  const fetch: FetchFn = (url, init) => {
    requests.push({ url, init });
    const next = replies.shift();
    if (!next) return new Promise<Response>(() => undefined);
    return next();
  };
  const events: SandboxFeedEvent[] = [];
  const states: FeedState[] = [];
  const feed = new FetchSandboxFeed({ fetch, accessToken: async () => 'tok', scheduler });
  const connect = () => feed.connect('p 1', { onEvent: (e) => events.push(e), onState: (s) => states.push(s) });
  return { scheduler, requests, events, states, connect };
}

const refused = () => Promise.resolve(new Response('{}', { status: 502 }));
const offline = () => Promise.reject(new TypeError('Failed to fetch'));

describe('FetchSandboxFeed', () => {
  it('reads named events with the bearer header and reports connecting, then open', async () => {
    const body = stream();
    const t = setUp([async () => body.response]);
    t.connect();
    await settle();

    expect(t.requests[0]?.url).toBe('/api/sandbox/p%201/events');
    expect(t.requests[0]?.init.headers).toMatchObject({ Authorization: 'Bearer tok', Accept: 'text/event-stream' });
    expect(t.states).toEqual(['connecting', 'open']);

    body.write('event: status\ndata: {"status":"running","message":"Website is running","url":"http://p.preview"}\n\n');
    body.write(': ping\n\n');
    body.write('event: files-changed\ndata: {"paths":["src/App.tsx"],');
    body.write('"reason":"write"}\n\nevent: command-output\ndata: {"command_id":"c1","stream":"stdout","text":"hi\\n"}\n\n');
    body.write('event: something-new\ndata: {}\n\nevent: command-exit\ndata: {"command_id":"c1","exit_code":0,"timed_out":false}\n\n');
    await settle();

    expect(t.events).toEqual([
      { type: 'status', data: { status: 'running', message: 'Website is running', url: 'http://p.preview' } },
      { type: 'files-changed', data: { paths: ['src/App.tsx'], reason: 'write' } },
      { type: 'command-output', data: { command_id: 'c1', stream: 'stdout', text: 'hi\n' } },
      { type: 'command-exit', data: { command_id: 'c1', exit_code: 0, timed_out: false } },
    ]);
  });

  it('reconnects after 1, 2, 5, then every 10 s, and starts over after a good connection', async () => {
    const body = stream();
    const t = setUp([refused, offline, refused, offline, refused, async () => body.response, refused]);
    t.connect();
    const delays: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      await settle();
      expect(t.scheduler.delays).toHaveLength(1); // the watchdog is off between connections
      const reconnect = t.scheduler.delays[0] as number;
      delays.push(reconnect);
      t.scheduler.fire(reconnect);
    }
    await settle();
    expect(delays).toEqual([1000, 2000, 5000, 10_000, 10_000]);
    expect(t.states.at(-1)).toBe('open');

    body.end(); // the server went away
    await settle();
    expect(t.states.slice(-2)).toEqual(['open', 'closed']);
    expect(t.scheduler.delays).toEqual([1000]);
    expect(t.requests).toHaveLength(6);
  });

  it('gives up a connection whose reply does not start within 10 s', async () => {
    const t = setUp([]); // fetch never answers
    t.connect();
    await settle();
    expect(t.scheduler.delays).toEqual([CONNECT_TIMEOUT_MS]);
    expect((t.requests[0]?.init.signal as AbortSignal).aborted).toBe(false);

    t.scheduler.fire(CONNECT_TIMEOUT_MS);
    await settle();
    expect((t.requests[0]?.init.signal as AbortSignal).aborted).toBe(true);
  });

  it('treats 40 s without a byte as a dead stream, but any bytes as life', async () => {
    const body = stream();
    const t = setUp([async () => body.response]);
    t.connect();
    await settle();
    expect(t.scheduler.delays).toEqual([SILENCE_LIMIT_MS]);
    body.write(': ping\n\n');
    await settle();
    expect(t.scheduler.delays).toEqual([SILENCE_LIMIT_MS]); // re-armed, still one

    t.scheduler.fire(SILENCE_LIMIT_MS);
    await settle();
    expect(t.states).toEqual(['connecting', 'open', 'closed']);
    expect(t.scheduler.delays).toEqual([1000]);
  });

  it('close() stops for good: closing, closed, no reconnect', async () => {
    const body = stream();
    const t = setUp([async () => body.response]);
    const connection = t.connect();
    await settle();
    connection.close();
    await settle();
    expect(t.states).toEqual(['connecting', 'open', 'closing', 'closed']);
    expect(t.scheduler.delays).toEqual([]);
    expect(() => body.write('event: status\ndata: {}\n\n')).toThrow(); // the body was cancelled
    expect(t.events).toEqual([]);
  });

  it('close() while waiting to reconnect cancels the wait', async () => {
    const t = setUp([refused]);
    const connection = t.connect();
    await settle();
    expect(t.scheduler.delays).toEqual([1000]);
    connection.close();
    expect(t.scheduler.delays).toEqual([]);
    expect(t.states).toEqual(['connecting', 'closed', 'closing', 'closed']);
  });
});

describe('feed helpers', () => {
  it('caps the reconnect delay at 10 s', () => {
    expect([0, 1, 2, 3, 4, 50].map(reconnectDelay)).toEqual([1000, 2000, 5000, 10_000, 10_000, 10_000]);
  });

  it('ignores unknown names, bad JSON and wrong shapes', () => {
    expect(parseFeedEvent('status', 'not json')).toBeNull();
    expect(parseFeedEvent(undefined, '{"status":"running"}')).toBeNull();
    expect(parseFeedEvent('files-changed', '{"paths":"x"}')).toBeNull();
    expect(parseFeedEvent('command-exit', '{"command_id":"c"}')).toBeNull();
  });
});

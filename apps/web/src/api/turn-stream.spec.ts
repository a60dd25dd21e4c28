import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { type TurnEvent, TurnStreamDecoder, parseTurnEvent, readTurnStream } from './turn-stream';

/** A whole turn as the server sends it (docs/ai-api.md), with a comment and non-ASCII text. */
const TRANSCRIPT = [
  ': connected',
  '',
  'event: turn',
  'data: {"turn_id":"t1","message":"Build a café menu ☕"}',
  '',
  'event: phase',
  'data: {"phase":"thinking"}',
  '',
  'event: plan',
  'data: {"kind":"build","modules":[{"id":"m1","title":"Menu","description":"The menu"}],"tasks":[{"id":"a","module_id":"m1","title":"Layout","description":"x"},{"id":"b","module_id":"m1","title":"Prices","description":"y"}],"cost":2}',
  '',
  'event: phase',
  'data: {"phase":"building"}',
  '',
  'event: task',
  'data: {"task_id":"a","index":0,"title":"Layout","state":"running"}',
  '',
  'event: credits',
  'data: {"charged":1,"refunded":0,"credits_remaining":4}',
  '',
  'event: text',
  'data: {"task_id":"a","text":"Crème brûlée — 😀 done"}',
  '',
  ': ping',
  '',
  'event: operation',
  'data: {"task_id":"a","type":"write_file","path":"src/App.tsx"}',
  '',
  'event: task',
  'data: {"task_id":"a","index":0,"title":"Layout","state":"done"}',
  '',
  'event: something-new',
  'data: {"ignored":true}',
  '',
  'event: checking',
  'data: {"round":1}',
  '',
  'event: errors',
  'data: {"round":1,"error_count":1,"warning_count":0,"errors":[{"message":"Cannot find name \'x\'.","file":"src/App.tsx","line":3,"column":5,"severity":"error"}]}',
  '',
  'event: phase',
  'data: {"phase":"idle"}',
  '',
  'event: done',
  'data: {"status":"kept","message":"Kept as a new version","commit_hash":"abc1234"}',
  '',
  '',
].join('\n');

const EXPECTED: TurnEvent[] = [
  { type: 'turn', data: { turn_id: 't1', message: 'Build a café menu ☕' } },
  { type: 'phase', data: { phase: 'thinking' } },
  {
    type: 'plan',
    data: {
      kind: 'build',
      modules: [{ id: 'm1', title: 'Menu', description: 'The menu' }],
      tasks: [
        { id: 'a', module_id: 'm1', title: 'Layout', description: 'x' },
        { id: 'b', module_id: 'm1', title: 'Prices', description: 'y' },
      ],
      cost: 2,
    },
  },
  { type: 'phase', data: { phase: 'building' } },
  { type: 'task', data: { task_id: 'a', index: 0, title: 'Layout', state: 'running' } },
  { type: 'credits', data: { charged: 1, refunded: 0, credits_remaining: 4 } },
  { type: 'text', data: { task_id: 'a', text: 'Crème brûlée — 😀 done' } },
  { type: 'operation', data: { task_id: 'a', type: 'write_file', path: 'src/App.tsx' } },
  { type: 'task', data: { task_id: 'a', index: 0, title: 'Layout', state: 'done' } },
  { type: 'checking', data: { round: 1 } },
  {
    type: 'errors',
    data: { round: 1, error_count: 1, warning_count: 0, errors: [{ message: "Cannot find name 'x'.", file: 'src/App.tsx', line: 3, column: 5, severity: 'error' }] },
  },
  { type: 'phase', data: { phase: 'idle' } },
  { type: 'done', data: { status: 'kept', message: 'Kept as a new version', commit_hash: 'abc1234' } },
];

const BYTES = new TextEncoder().encode(TRANSCRIPT);

/** The transcript's bytes cut at the given offsets (sorted, deduplicated, inside the text). */
function chunksAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.slice(start, point));
    start = point;
  }
  return chunks;
}

function decodeAll(chunks: readonly Uint8Array[]): TurnEvent[] {
  const decoder = new TurnStreamDecoder();
  return [...chunks.flatMap((chunk) => decoder.push(chunk)), ...decoder.end()];
}

function bodyOf(chunks: readonly Uint8Array[], options: { close?: boolean } = {}): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      if (options.close !== false) controller.close();
    },
  });
}

describe('TurnStreamDecoder', () => {
  it('reads a whole turn in one chunk, skipping comments and unknown events', () => {
    expect(decodeAll([BYTES])).toEqual(EXPECTED);
  });

  it('reads the same events whatever the chunk boundaries (lines, fields and UTF-8 characters split)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: BYTES.length }), { maxLength: 60 }), (cuts) => {
        expect(decodeAll(chunksAt(BYTES, cuts))).toEqual(EXPECTED);
      }),
      { numRuns: 300 },
    );
  });

  it('reads the stream one byte at a time', () => {
    expect(decodeAll([...BYTES].map((b) => Uint8Array.of(b)))).toEqual(EXPECTED);
  });

  it('accepts CRLF line ends and a last event without its blank line', () => {
    const text = 'event: phase\r\ndata: {"phase":"fetching"}\r\n\r\nevent: done\r\ndata: {"status":"reverted","message":"It broke the build"}';
    expect(decodeAll([new TextEncoder().encode(text)])).toEqual([
      { type: 'phase', data: { phase: 'fetching' } },
      { type: 'done', data: { status: 'reverted', message: 'It broke the build' } },
    ]);
  });
});

describe('parseTurnEvent', () => {
  it('refuses shapes the contract does not have', () => {
    expect(parseTurnEvent('phase', '{"phase":"dreaming"}')).toBeNull();
    expect(parseTurnEvent('plan', '{"kind":"build","tasks":[]}')).toBeNull();
    expect(parseTurnEvent('task', '{"task_id":"a","index":0,"state":"paused"}')).toBeNull();
    expect(parseTurnEvent('done', '{"status":"maybe"}')).toBeNull();
    expect(parseTurnEvent('credits', '{"charged":1}')).toBeNull();
    expect(parseTurnEvent('turn', 'not json')).toBeNull();
    expect(parseTurnEvent('text', '[1,2]')).toBeNull();
    expect(parseTurnEvent(undefined, '{"text":"a"}')).toBeNull();
  });

  it('reads errors, awaiting approval and optional fields leniently', () => {
    expect(parseTurnEvent('error', '{"code":"AI.PROVIDER_FAILED","detail":"The model is unavailable"}')).toEqual({
      type: 'error',
      data: { code: 'AI.PROVIDER_FAILED', detail: 'The model is unavailable' },
    });
    expect(parseTurnEvent('error', '{}')).toEqual({ type: 'error', data: { code: 'UNKNOWN', detail: 'Request failed' } });
    expect(parseTurnEvent('awaiting_approval', '{"turn_id":"t1","cost":3}')).toEqual({ type: 'awaiting_approval', data: { turn_id: 't1', cost: 3 } });
    expect(parseTurnEvent('text', '{"text":"hi"}')).toEqual({ type: 'text', data: { task_id: null, text: 'hi' } });
    expect(parseTurnEvent('operation', '{"task_id":"a","type":"run_command"}')).toEqual({ type: 'operation', data: { task_id: 'a', type: 'run_command' } });
    expect(parseTurnEvent('done', '{"status":"failed","message":"x","commit_hash":""}')).toEqual({ type: 'done', data: { status: 'failed', message: 'x' } });
  });
});

describe('readTurnStream', () => {
  it('yields events in order as the body arrives', async () => {
    const events: TurnEvent[] = [];
    for await (const event of readTurnStream(bodyOf(chunksAt(BYTES, [7, 100, 101, 350, 900])))) events.push(event);
    expect(events).toEqual(EXPECTED);
  });

  it('stops with the abort reason when the caller aborts, and cancels the body', async () => {
    let cancelled = false;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => void (controller = c),
      cancel: () => void (cancelled = true),
    });
    controller.enqueue(new TextEncoder().encode('event: phase\ndata: {"phase":"thinking"}\n\n'));
    const abort = new AbortController();
    const seen: TurnEvent[] = [];
    const reading = (async () => {
      for await (const event of readTurnStream(body, abort.signal)) {
        seen.push(event);
        abort.abort(new Error('left the builder'));
      }
    })();
    await expect(reading).rejects.toThrow('left the builder');
    expect(seen).toEqual([{ type: 'phase', data: { phase: 'thinking' } }]);
    expect(cancelled).toBe(true);
  });
});

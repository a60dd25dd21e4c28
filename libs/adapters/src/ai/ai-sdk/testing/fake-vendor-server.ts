// Local HTTP servers that speak the vendors' streaming wire formats, for adapter tests: they
// record each request and answer with a scripted reply.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown>;
}

export type Reply = (request: RecordedRequest, response: ServerResponse) => void;

export class FakeVendorServer {
  readonly requests: RecordedRequest[] = [];
  private replies: Reply[] = [];
  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeVendorServer> {
    let self: FakeVendorServer | null = null;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const request: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
        self?.requests.push(request);
        const reply = self?.replies.shift();
        if (!reply) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'no scripted reply' } }));
          return;
        }
        reply(request, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new FakeVendorServer(server);
    return self;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The next request gets this reply. */
  reply(reply: Reply): void {
    this.replies.push(reply);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Server-sent events: `event:` lines when named (Anthropic), data only otherwise (OpenAI). */
export function sse(events: readonly (readonly [name: string | null, data: unknown])[]): Reply {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const [name, data] of events) {
      response.write(`${name ? `event: ${name}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
    }
    response.end();
  };
}

export function json(status: number, body: unknown): Reply {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
}

// --- Anthropic Messages API ---------------------------------------------------------------

export type AnthropicBlock =
  | { readonly text: string }
  | { readonly tool: string; readonly id: string; readonly input: unknown; /** Split the JSON into this many pieces. */ readonly pieces?: number };

/** An Anthropic Messages stream: text and tool_use blocks, then the stop reason and usage. */
export function anthropicStream(blocks: readonly AnthropicBlock[], options: { stopReason?: string; usage?: Record<string, number> } = {}): Reply {
  const events: [string, unknown][] = [
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          id: 'msg_test',
          type: 'message',
          role: 'assistant',
          model: 'claude-test',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 1200, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...options.usage },
        },
      },
    ],
  ];
  blocks.forEach((block, index) => {
    if ('text' in block) {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }]);
      for (const piece of block.text.match(/.{1,12}/gs) ?? []) events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }]);
    } else {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.tool, input: {} } }]);
      const json = JSON.stringify(block.input);
      const size = Math.ceil(json.length / (block.pieces ?? 3));
      for (let at = 0; at < json.length; at += size) {
        events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json.slice(at, at + size) } }]);
      }
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: options.stopReason ?? 'tool_use', stop_sequence: null }, usage: { output_tokens: 321 } }]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return sse(events);
}

// --- OpenAI chat completions ------------------------------------------------------------

export type OpenAiPiece = { readonly text: string } | { readonly tool: string; readonly id: string; readonly input: unknown; readonly pieces?: number };

/** An OpenAI chat-completions stream: content deltas, tool_calls deltas, finish reason, usage, [DONE]. */
export function openAiStream(pieces: readonly OpenAiPiece[], options: { finishReason?: string } = {}): Reply {
  const chunk = (delta: unknown, finish: string | null = null) => ({
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1_760_000_000,
    model: 'test-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const events: [null, unknown][] = [[null, chunk({ role: 'assistant', content: '' })]];
  let toolIndex = 0;
  for (const piece of pieces) {
    if ('text' in piece) {
      for (const part of piece.text.match(/.{1,10}/gs) ?? []) events.push([null, chunk({ content: part })]);
    } else {
      const json = JSON.stringify(piece.input);
      events.push([null, chunk({ tool_calls: [{ index: toolIndex, id: piece.id, type: 'function', function: { name: piece.tool, arguments: '' } }] })]);
      const size = Math.ceil(json.length / (piece.pieces ?? 3));
      for (let at = 0; at < json.length; at += size) events.push([null, chunk({ tool_calls: [{ index: toolIndex, function: { arguments: json.slice(at, at + size) } }] })]);
      toolIndex += 1;
    }
  }
  events.push([null, chunk({}, options.finishReason ?? (toolIndex > 0 ? 'tool_calls' : 'stop'))]);
  events.push([null, { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1_760_000_000, model: 'test-model', choices: [], usage: { prompt_tokens: 850, completion_tokens: 120, total_tokens: 970 } }]);
  events.push([null, '[DONE]']);
  return sse(events);
}

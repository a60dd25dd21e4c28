import http from 'node:http';

export interface FeedEvent {
  readonly event: string;
  readonly data: unknown;
}

/**
 * A server-sent-events client over a plain HTTP request (as the builder's fetch stream does,
 * with the bearer header), collecting events and comment lines for assertions.
 */
export class SseClient {
  readonly events: FeedEvent[] = [];
  readonly comments: string[] = [];
  private buffer = '';
  private waiters: Array<() => void> = [];

  private constructor(
    private readonly request: http.ClientRequest,
    readonly response: http.IncomingMessage,
  ) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end: number;
      while ((end = this.buffer.indexOf('\n\n')) >= 0) {
        this.parse(this.buffer.slice(0, end));
        this.buffer = this.buffer.slice(end + 2);
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static open(url: string, headers: Record<string, string>): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const request = http.get(url, { headers: { Accept: 'text/event-stream', ...headers } }, (response) => resolve(new SseClient(request, response)));
      request.on('error', reject);
    });
  }

  get status(): number {
    return this.response.statusCode ?? 0;
  }

  /** Resolves with the first collected event matching, waiting for it up to timeoutMs. */
  async next(match: (event: FeedEvent) => boolean, timeoutMs = 3_000): Promise<FeedEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(match);
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`No matching event within ${timeoutMs} ms; got ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async nextComment(text: string, timeoutMs = 3_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.comments.includes(text)) {
      if (Date.now() > deadline) throw new Error(`No comment "${text}" within ${timeoutMs} ms; got ${JSON.stringify(this.comments)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Resolves when the server ends the stream. */
  ended(timeoutMs = 3_000): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.response.complete || this.response.destroyed) return resolve();
      const timer = setTimeout(() => reject(new Error('stream still open')), timeoutMs);
      this.response.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  close(): void {
    this.request.destroy();
  }

  private parse(block: string): void {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
      else if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length > 0) this.events.push({ event, data: JSON.parse(data.join('\n')) as unknown });
  }
}

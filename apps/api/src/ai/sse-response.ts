import type { Request, Response } from 'express';

/** A comment line every this often keeps proxies from closing a quiet stream (a long error scan). */
export const SSE_HEARTBEAT_MS = 15_000;
/** A client that reads slower than this much backlog is cut off (the work goes on without it). */
export const MAX_SSE_BACKLOG_BYTES = 4 * 1024 * 1024;

/**
 * A server-sent-events reply, as the sandbox feed writes them (docs/sandbox-api.md): `event:` name
 * and one JSON `data:` line, `: ping` comments, no caching or proxy buffering. Writes after the
 * client left are dropped.
 */
export class SseResponse {
  private open = true;
  private readonly ping: ReturnType<typeof setInterval>;

  private constructor(
    req: Request,
    private readonly res: Response,
    heartbeatMs: number,
  ) {
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store, no-transform');
    res.setHeader('Connection', 'keep-alive');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    req.socket.setNoDelay(true);
    this.ping = setInterval(() => this.write(': ping\n\n'), heartbeatMs);
    res.on('close', () => this.stop());
  }

  static start(req: Request, res: Response, heartbeatMs = SSE_HEARTBEAT_MS): SseResponse {
    return new SseResponse(req, res, heartbeatMs);
  }

  get isOpen(): boolean {
    return this.open;
  }

  send(event: string, data: unknown): void {
    this.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    if (!this.open) return;
    this.stop();
    this.res.end();
  }

  private write(chunk: string): void {
    if (!this.open) return;
    if (this.res.writableLength > MAX_SSE_BACKLOG_BYTES) {
      this.end();
      return;
    }
    this.res.write(chunk);
  }

  private stop(): void {
    this.open = false;
    clearInterval(this.ping);
  }
}

import { type FanoutMessage, type RealtimeError, type RealtimeFanout, type Result, decodeFanoutMessage, encodeFanoutMessage, ok } from '@kiln/domain';
import pg from 'pg';
import { markConnectFailure } from '../postgres/database-unavailable.js';

/** The NOTIFY channel of Kiln's own database that API instances share. */
export const FANOUT_CHANNEL = 'kiln_realtime_fanout';
const RECONNECT_MS = [250, 1000, 2000, 5000];

/**
 * RealtimeFanout over PostgreSQL LISTEN/NOTIFY on Kiln's own database, so every API instance
 * sharing it gets each other's broadcasts and presence (docs/databases.md "Realtime"). One LISTEN
 * connection per instance, opened with the first subscriber; NOTIFY through a small pool (a
 * publisher's messages keep their order: one connection per publish, awaited in turn by the
 * server's socket handling, and PostgreSQL delivers notifications in commit order). The payload
 * is the message's JSON, at most FANOUT_MAX_PAYLOAD_BYTES (NOTIFY's limit is 8,000 bytes).
 * If the LISTEN connection drops it reconnects; messages published in between are lost (a
 * broadcast is fire-and-forget, as Supabase's).
 */
export class PgRealtimeFanout implements RealtimeFanout {
  private readonly pool: pg.Pool;
  private readonly listeners = new Set<(m: FanoutMessage) => void>();
  private listener: Promise<pg.Client> | null = null;
  private closed = false;
  private attempt = 0;

  constructor(private readonly options: { readonly url: string; readonly onError?: (error: unknown) => void }) {
    this.pool = new pg.Pool({ connectionString: options.url, max: 1, idleTimeoutMillis: 10_000, connectionTimeoutMillis: 5000 });
    this.pool.on('error', () => {});
  }

  async publish(message: FanoutMessage): Promise<Result<void, RealtimeError>> {
    const text = encodeFanoutMessage(message);
    if (!text.ok) return text;
    await this.pool.query('SELECT pg_notify($1, $2)', [FANOUT_CHANNEL, text.value]);
    return ok(undefined);
  }

  async subscribe(listener: (message: FanoutMessage) => void): Promise<() => Promise<void>> {
    await this.listening();
    this.listeners.add(listener);
    return async () => {
      this.listeners.delete(listener);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    const client = this.listener;
    this.listener = null;
    await client?.then((c) => c.end()).catch(() => {});
    await this.pool.end().catch(() => {});
  }

  private listening(): Promise<pg.Client> {
    if (this.listener !== null) return this.listener;
    const opening = this.open();
    this.listener = opening;
    opening.catch(() => {
      if (this.listener === opening) this.listener = null;
    });
    return opening;
  }

  private async open(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.options.url, connectionTimeoutMillis: 5000, keepAlive: true });
    client.on('error', (error) => this.options.onError?.(error));
    client.on('notification', (n) => {
      if (n.channel !== FANOUT_CHANNEL || n.payload === undefined) return;
      const message = decodeFanoutMessage(n.payload);
      if (message === null) return;
      for (const l of [...this.listeners]) l(message);
    });
    client.on('end', () => this.lost(client));
    await client.connect().catch((e: unknown) => Promise.reject(markConnectFailure(e)));
    await client.query(`LISTEN ${FANOUT_CHANNEL}`);
    this.attempt = 0;
    return client;
  }

  /** The LISTEN connection ended: open another while anyone listens (back off while it fails). */
  private lost(client: pg.Client): void {
    void this.listener?.then((current) => {
      if (current !== client || this.closed) return;
      this.listener = null;
      const retry = () => {
        if (this.closed || this.listeners.size === 0) return;
        this.listening().catch(() => {
          this.attempt += 1;
          setTimeout(retry, RECONNECT_MS[Math.min(this.attempt, RECONNECT_MS.length - 1)]).unref();
        });
      };
      retry();
    }).catch(() => {});
  }
}

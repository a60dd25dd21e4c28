import { type ChangeEvent, type ChangeSubscription, type DataApiTarget, concerns, matchesFilter } from '@kiln/domain';
import pg from 'pg';
import { CHANGES_CHANNEL, ident } from '../databases/project-database-sql.js';
import type { PgDataApi, RequestRole } from '../databases/pg-data-api.js';
import { markConnectFailure } from '../postgres/database-unavailable.js';

/** One change as the project database's trigger announces it (project-database-sql.ts). */
interface Announced {
  readonly schema: string;
  readonly table: string;
  readonly type: ChangeEvent;
  readonly pk: Record<string, unknown> | null;
  readonly old_pk: Record<string, unknown> | null;
  readonly at: string;
}

/** realtime-js's `postgres_changes` payload: `{ ids, data: { schema, table, commit_timestamp, type, columns, record, old_record, errors } }`. */
export interface ChangePayload {
  readonly ids: number[];
  readonly data: {
    readonly schema: string;
    readonly table: string;
    readonly commit_timestamp: string;
    readonly type: ChangeEvent;
    readonly columns: { name: string; type: string }[];
    readonly record: Record<string, unknown>;
    readonly old_record: Record<string, unknown>;
    readonly errors: null;
  };
}

/** A joined channel with postgres_changes bindings: who it is now (an access_token can change it) and where its changes go. */
export interface ChangeSubscriber {
  readonly bindings: readonly { readonly id: number; readonly sub: ChangeSubscription }[];
  caller(): { readonly role: RequestRole; readonly claims: Record<string, unknown> };
  deliver(payload: ChangePayload): void;
  /** The LISTEN connection was lost: changes stop until the subscriber joins again. */
  lost(): void;
}

interface Feed {
  readonly target: DataApiTarget;
  readonly subscribers: Set<ChangeSubscriber>;
  readonly client: Promise<pg.Client>;
  /** Changes are handled one after another: a subscriber sees them in commit order. */
  queue: Promise<void>;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

/**
 * postgres_changes of project databases: one LISTEN connection per project database that has
 * subscribers (the authenticator's login: LISTEN needs no privilege, and it is the connection the
 * pool keeps free for Kiln), opened with the first subscriber and closed with the last. Each
 * announced change is re-read as each subscriber's role with its claims (PgDataApi.readAs), so a
 * row the subscriber may not select never reaches it; subscribers with the same claims share one
 * read. Deletes carry only the primary key (the row is gone, nothing to re-read) and go to
 * subscribers whose role may SELECT the table — Supabase's rule (docs/decisions.md).
 */
export class PgChangeFeed {
  private readonly feeds = new Map<string, Feed>();

  constructor(
    private readonly api: PgDataApi,
    private readonly log: (error: unknown) => void = (e) => console.error('realtime changes:', e),
  ) {}

  /** Starts delivering a project's changes to `subscriber`; rejects when its database cannot be reached. */
  async subscribe(target: DataApiTarget, subscriber: ChangeSubscriber): Promise<() => void> {
    let feed = this.feeds.get(target.ref);
    if (feed === undefined) {
      const opening: Feed = { target, subscribers: new Set(), client: this.listen(target), queue: Promise.resolve() };
      this.feeds.set(target.ref, opening);
      opening.client.catch(() => {
        if (this.feeds.get(target.ref) === opening) this.feeds.delete(target.ref);
      });
      feed = opening;
    }
    feed.subscribers.add(subscriber);
    try {
      await feed.client;
    } catch (error) {
      feed.subscribers.delete(subscriber);
      throw error;
    }
    const joined = feed;
    return () => {
      joined.subscribers.delete(subscriber);
      if (joined.subscribers.size === 0 && this.feeds.get(target.ref) === joined) void this.forget(target.ref);
    };
  }

  /** How many project databases are listened to (tests: the last subscriber closes the connection). */
  get listening(): number {
    return this.feeds.size;
  }

  async forget(ref: string): Promise<void> {
    const feed = this.feeds.get(ref);
    if (feed === undefined) return;
    this.feeds.delete(ref);
    await feed.client.then((c) => c.end()).catch(() => {});
  }

  async close(): Promise<void> {
    await Promise.all([...this.feeds.keys()].map((ref) => this.forget(ref)));
  }

  private async listen(target: DataApiTarget): Promise<pg.Client> {
    const { ssl, ...login } = target.connection;
    const client = new pg.Client({ ...login, ssl: ssl === true, connectionTimeoutMillis: 5000, keepAlive: true });
    client.on('error', (e) => this.log(e));
    client.on('notification', (n) => {
      if (n.channel !== CHANGES_CHANNEL || n.payload === undefined) return;
      const feed = this.feeds.get(target.ref);
      if (feed === undefined) return;
      const change = parseAnnounced(n.payload);
      if (change === null) return;
      feed.queue = feed.queue.then(() => this.dispatch(feed, change)).catch((e: unknown) => this.log(e));
    });
    client.on('end', () => {
      // The connection dropped (a server restart, a killed backend): forget it and tell the
      // subscribers, whose channels error so that realtime-js joins again (a new LISTEN). Not
      // after forget(): that removed the feed first, and closes the sockets itself.
      const feed = this.feeds.get(target.ref);
      if (feed === undefined) return;
      void feed.client.then(
        (c) => {
          if (c !== client || this.feeds.get(target.ref) !== feed) return;
          this.feeds.delete(target.ref);
          for (const s of [...feed.subscribers]) s.lost();
        },
        () => {},
      );
    });
    await client.connect().catch((e: unknown) => Promise.reject(markConnectFailure(e)));
    await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    return client;
  }

  private async dispatch(feed: Feed, change: Announced): Promise<void> {
    const interested = [...feed.subscribers]
      .map((s) => ({ s, bindings: s.bindings.filter((b) => concerns(b.sub, change)) }))
      .filter((x) => x.bindings.length > 0);
    if (interested.length === 0) return;
    // Subscribers with the same role and claims see the same rows: one read for all of them.
    const groups = new Map<string, typeof interested>();
    for (const x of interested) {
      const { role, claims } = x.s.caller();
      const key = `${role}\n${JSON.stringify(claims)}`;
      const group = groups.get(key) ?? [];
      group.push(x);
      groups.set(key, group);
    }
    const table = `${ident(change.schema)}.${ident(change.table)}`;
    await Promise.all(
      [...groups.values()].map(async (group) => {
        const { role, claims } = group[0]!.s.caller();
        let record: Record<string, unknown> | null;
        try {
          record = change.type === 'DELETE' ? await this.mayRead(feed.target, role, claims, table) : await this.reread(feed.target, role, claims, table, change.pk!);
        } catch (error) {
          // RLS or a grant refusing the read (42501), a dropped table: not for this subscriber.
          if ((error as { code?: string }).code === undefined) this.log(error);
          return;
        }
        if (record === null) return;
        const oldRecord = change.old_pk ?? {};
        for (const { s, bindings } of group) {
          // A delete has only the primary key: a filter on another column cannot be checked, and
          // Supabase delivers it unfiltered (only the key is sent).
          const row = change.type === 'DELETE' ? oldRecord : record;
          const ids = bindings.filter((b) => b.sub.filter === null || (change.type === 'DELETE' && !(b.sub.filter.column in row)) || matchesFilter(b.sub.filter, row)).map((b) => b.id);
          if (ids.length === 0) continue;
          s.deliver({
            ids,
            data: {
              schema: change.schema,
              table: change.table,
              commit_timestamp: change.at,
              type: change.type,
              columns: [],
              record: change.type === 'DELETE' ? {} : record,
              old_record: change.type === 'INSERT' ? {} : oldRecord,
              errors: null,
            },
          });
        }
      }),
    );
  }

  /** The changed row as the subscriber's role sees it, or null (RLS hides it, or it is gone again). */
  private async reread(target: DataApiTarget, role: RequestRole, claims: Record<string, unknown>, table: string, pk: Record<string, unknown>): Promise<Record<string, unknown> | null> {
    const columns = Object.keys(pk);
    if (columns.length === 0 || !columns.every((c) => IDENT.test(c))) return null;
    const where = columns.map((c, i) => `t.${ident(c)} = $${i + 1}`).join(' AND ');
    const params = columns.map((c) => {
      const v = pk[c];
      return v === null || typeof v !== 'object' ? v : JSON.stringify(v);
    });
    const rows = await this.api.readAs<{ row: Record<string, unknown> }>(target, role, claims, `SELECT to_jsonb(t) AS row FROM ${table} t WHERE ${where} LIMIT 1`, params);
    return rows[0]?.row ?? null;
  }

  /** For a delete: {} when the role may SELECT the table (Supabase's rule), else null. */
  private async mayRead(target: DataApiTarget, role: RequestRole, claims: Record<string, unknown>, table: string): Promise<Record<string, unknown> | null> {
    const rows = await this.api.readAs<{ ok: boolean }>(target, role, claims, `SELECT has_table_privilege($1, 'SELECT') AS ok`, [table]);
    return rows[0]?.ok === true ? {} : null;
  }
}

function parseAnnounced(text: string): Announced | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const c = v as Record<string, unknown>;
  if (c['schema'] !== 'public' || typeof c['table'] !== 'string' || !IDENT.test(c['table'])) return null;
  if (c['type'] !== 'INSERT' && c['type'] !== 'UPDATE' && c['type'] !== 'DELETE') return null;
  // Past NOTIFY's size the key was left out: the change cannot be re-read, so it is not sent.
  if (c['too_big'] === true) return null;
  const pk = c['type'] === 'DELETE' ? null : c['pk'];
  if (c['type'] !== 'DELETE' && (typeof pk !== 'object' || pk === null)) return null;
  const oldPk = typeof c['old_pk'] === 'object' ? (c['old_pk'] as Record<string, unknown> | null) : null;
  return { schema: 'public', table: c['table'], type: c['type'], pk: pk as Record<string, unknown> | null, old_pk: oldPk, at: typeof c['at'] === 'string' ? c['at'] : '' };
}

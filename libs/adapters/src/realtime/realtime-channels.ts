import { randomUUID } from 'node:crypto';
import {
  type ChangeSubscription,
  type DataApiTarget,
  type FanoutBody,
  type FanoutMessage,
  type PresenceDiff,
  PresenceTable,
  type RealtimeFanout,
  type RealtimeLimits,
  type RestResult,
  encodeFanoutMessage,
  parseChangeSubscription,
  parseTopic,
} from '@kiln/domain';
import type { WebSocket } from 'ws';
import type { Caller } from '../databases/data-api-auth.js';
import type { ChangePayload, PgChangeFeed } from './pg-change-feed.js';
import { type BroadcastPush, type PhoenixMessage, encodeBroadcast, encodeMessage, reply } from './phoenix-frames.js';

/** One open socket of a project's data origin. */
export interface RealtimeSocket {
  readonly id: string;
  readonly ws: WebSocket;
  readonly ref: string;
  readonly target: DataApiTarget;
  /** The apikey it connected with: later access tokens are checked with it, as `/rest/v1` does. */
  readonly apikey: string;
  readonly caller: Caller;
  /** Who the caps count (`user:<sub>` or `anon:<address>`). */
  readonly userKey: string;
  lastSeen: number;
  readonly channels: Map<string, Joined>;
}

interface Joined {
  readonly topic: string;
  readonly joinRef: string | null;
  readonly socket: RealtimeSocket;
  caller: Caller;
  readonly self: boolean;
  readonly ack: boolean;
  readonly presenceKey: string;
  /** Its presence in the topic's table: `instance:socket:joinRef`. */
  readonly owner: string;
  readonly bindings: { readonly id: number; readonly sub: ChangeSubscription }[];
  stopChanges: (() => void) | null;
  expiry: NodeJS.Timeout | null;
  left: boolean;
}

export interface RealtimeChannelsDeps {
  readonly instanceId: string;
  readonly fanout: RealtimeFanout;
  readonly changes: PgChangeFeed;
  readonly limits: RealtimeLimits;
  /** Verifies a channel's access token as `/rest/v1` would (with the socket's apikey). */
  verify(socket: RealtimeSocket, token: string): Promise<RestResult<Caller>>;
  readonly log: (error: unknown) => void;
}

const MAX_BINDINGS = 100;
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The channels of every socket of this instance: join and leave, access tokens (an expired one
 * closes the channel), broadcast (self and ack options) and presence through the fanout, and
 * postgres_changes through the change feed. Topics are per project (`ref`), so a socket of one
 * project never reaches another's topics.
 */
export class RealtimeChannels {
  /** Joined channels of this instance per `ref \n topic`. */
  private readonly local = new Map<string, Set<Joined>>();
  private readonly presence = new Map<string, PresenceTable>();
  private nextBinding = 0;
  private nextPresence = 0;

  constructor(private readonly deps: RealtimeChannelsDeps) {}

  async handle(s: RealtimeSocket, m: PhoenixMessage): Promise<void> {
    if (m.event === 'phx_join') return this.join(s, m);
    const channel = s.channels.get(m.topic);
    if (channel === undefined || (m.joinRef !== null && channel.joinRef !== m.joinRef)) {
      return send(s, reply(m.joinRef, m.ref, m.topic, 'error', { reason: 'unmatched topic' }));
    }
    switch (m.event) {
      case 'phx_leave':
        this.leave(channel);
        return send(s, reply(m.joinRef, m.ref, m.topic, 'ok', {}));
      case 'access_token':
        return this.refreshToken(channel, m);
      case 'presence':
        return this.presenceEvent(channel, m);
      default:
        return send(s, reply(m.joinRef, m.ref, m.topic, 'error', { reason: `Unknown event: ${m.event.slice(0, 64)}` }));
    }
  }

  socketClosed(s: RealtimeSocket): void {
    for (const channel of [...s.channels.values()]) this.leave(channel);
  }

  /** A client's broadcast: refused past the fanout's size, else to this instance's sockets at once and to the others through the fanout. */
  async broadcast(s: RealtimeSocket, push: BroadcastPush): Promise<void> {
    const channel = s.channels.get(push.topic);
    const answer = (status: 'ok' | 'error', response: unknown) => push.ref !== null && send(s, reply(push.joinRef, push.ref, push.topic, status, response));
    if (channel === undefined) return void answer('error', { reason: 'unmatched topic' });
    const sent = await this.publishBroadcast(s.ref, push.topic, push.event, push.encoding, push.data, `${this.deps.instanceId}:${s.id}`);
    if (!sent.ok) return void answer('error', { reason: sent.reason });
    if (channel.ack) answer('ok', {});
  }

  /**
   * A broadcast on a project's topic (from a socket, or the REST endpoint): checked against the
   * fanout's size, delivered to this instance's sockets, then published to the others.
   */
  async publishBroadcast(ref: string, topic: string, event: string, encoding: 'json' | 'binary', data: Buffer, sender: string): Promise<{ ok: true } | { ok: false; tooLarge: boolean; reason: string }> {
    const body: FanoutBody = { kind: 'broadcast', event, sender, encoding, data: encoding === 'json' ? data.toString('utf8') : data.toString('base64') };
    const message: FanoutMessage = { project: ref, topic, origin: this.deps.instanceId, body };
    const fits = encodeFanoutMessage(message);
    if (!fits.ok) return { ok: false, tooLarge: true, reason: fits.error.message };
    this.deliverBroadcast(ref, topic, body);
    try {
      const published = await this.deps.fanout.publish(message);
      if (!published.ok) return { ok: false, tooLarge: true, reason: published.error.message };
    } catch (error) {
      this.deps.log(error);
      return { ok: false, tooLarge: false, reason: 'Realtime could not reach the other servers; the message reached only this one’s clients' };
    }
    return { ok: true };
  }

  /** A message of another instance (this instance's own were delivered when sent). */
  fromFanout(m: FanoutMessage): void {
    if (m.origin === this.deps.instanceId) return;
    const key = topicKey(m.project, m.topic);
    if (!this.local.has(key)) return;
    const body = m.body;
    switch (body.kind) {
      case 'broadcast':
        return this.deliverBroadcast(m.project, m.topic, body);
      case 'presence_track':
        return this.sendDiff(m.project, m.topic, this.table(key).track(body.owner, body.key, body.meta));
      case 'presence_untrack':
        return this.sendDiff(m.project, m.topic, this.table(key).untrack(body.owner));
      case 'presence_hello':
        for (const own of this.table(key).owners(`${this.deps.instanceId}:`)) {
          void this.publish({ project: m.project, topic: m.topic, origin: this.deps.instanceId, body: { kind: 'presence_track', owner: own.owner, key: own.key, meta: own.meta } });
        }
    }
  }

  private async join(s: RealtimeSocket, m: PhoenixMessage): Promise<void> {
    const fail = (reason: string) => send(s, reply(m.joinRef, m.ref, m.topic, 'error', { reason }));
    const topic = parseTopic(m.topic);
    if (!topic.ok) return fail(topic.error.message);
    const before = s.channels.get(m.topic);
    if (before === undefined && s.channels.size >= this.deps.limits.channelsPerSocket) return fail(`Too many channels: at most ${this.deps.limits.channelsPerSocket} per connection`);
    const payload = (typeof m.payload === 'object' && m.payload !== null ? m.payload : {}) as Record<string, unknown>;
    const config = (typeof payload['config'] === 'object' && payload['config'] !== null ? payload['config'] : {}) as Record<string, unknown>;
    if (config['private'] === true) return fail('Private channels (realtime.messages policies) are not available; join without private: true');
    const broadcast = (config['broadcast'] ?? {}) as Record<string, unknown>;
    const presence = (config['presence'] ?? {}) as Record<string, unknown>;
    const wanted = config['postgres_changes'] ?? [];
    if (!Array.isArray(wanted) || wanted.length > MAX_BINDINGS) return fail(`postgres_changes must be a list of at most ${MAX_BINDINGS} bindings`);
    const bindings: Joined['bindings'][number][] = [];
    for (const b of wanted) {
      const sub = parseChangeSubscription(b);
      if (!sub.ok) return fail(sub.error.message);
      bindings.push({ id: (this.nextBinding += 1), sub: sub.value });
    }
    let caller = s.caller;
    if (payload['access_token'] !== undefined && payload['access_token'] !== null) {
      if (typeof payload['access_token'] !== 'string') return fail('access_token must be a string');
      const verified = await this.deps.verify(s, payload['access_token']);
      if (!verified.ok) return fail(tokenReason(verified.error.message));
      caller = verified.value;
    }
    if (before !== undefined) this.leave(before);
    const presenceKey = typeof presence['key'] === 'string' && presence['key'] !== '' ? presence['key'].slice(0, 255) : randomUUID();
    const channel: Joined = {
      topic: m.topic,
      joinRef: m.joinRef,
      socket: s,
      caller,
      self: broadcast['self'] === true,
      ack: broadcast['ack'] === true,
      presenceKey,
      owner: `${this.deps.instanceId}:${s.id}:${m.joinRef ?? ''}`,
      bindings,
      stopChanges: null,
      expiry: null,
      left: false,
    };
    s.channels.set(m.topic, channel);
    const key = topicKey(s.ref, m.topic);
    const first = !this.local.has(key);
    const set = this.local.get(key) ?? new Set<Joined>();
    set.add(channel);
    this.local.set(key, set);
    if (bindings.length > 0) {
      try {
        const stop = await this.deps.changes.subscribe(s.target, {
          bindings,
          caller: () => channel.caller,
          deliver: (change: ChangePayload) => send(s, encodeMessage(channel.joinRef, null, channel.topic, 'postgres_changes', change)),
          // Phoenix's phx_error: realtime-js marks the channel errored and joins it again.
          lost: () => {
            if (channel.left) return;
            send(s, encodeMessage(channel.joinRef, channel.joinRef, channel.topic, 'phx_error', {}));
            this.leave(channel);
          },
        });
        if (channel.left) stop();
        else channel.stopChanges = stop;
      } catch (error) {
        this.deps.log(error);
        this.leave(channel);
        return fail('Unable to subscribe to changes: the project database is unavailable; try again shortly');
      }
    }
    if (channel.left) return;
    send(s, reply(m.joinRef, m.ref, m.topic, 'ok', { postgres_changes: bindings.map((b) => ({ id: b.id, ...b.sub.echo })) }));
    if (bindings.length > 0) send(s, encodeMessage(m.joinRef, null, m.topic, 'system', { extension: 'postgres_changes', status: 'ok', message: 'Subscribed to PostgreSQL', channel: m.topic.slice('realtime:'.length) }));
    send(s, encodeMessage(m.joinRef, null, m.topic, 'presence_state', this.table(key).state()));
    if (first) void this.publish({ project: s.ref, topic: m.topic, origin: this.deps.instanceId, body: { kind: 'presence_hello' } });
    this.watchExpiry(channel);
  }

  private leave(channel: Joined): void {
    if (channel.left) return;
    channel.left = true;
    const s = channel.socket;
    if (s.channels.get(channel.topic) === channel) s.channels.delete(channel.topic);
    channel.stopChanges?.();
    if (channel.expiry !== null) clearTimeout(channel.expiry);
    const key = topicKey(s.ref, channel.topic);
    const untracked = this.presence.get(key)?.untrack(channel.owner) ?? null;
    if (untracked !== null) {
      this.sendDiff(s.ref, channel.topic, untracked);
      void this.publish({ project: s.ref, topic: channel.topic, origin: this.deps.instanceId, body: { kind: 'presence_untrack', owner: channel.owner } });
    }
    const set = this.local.get(key);
    set?.delete(channel);
    if (set !== undefined && set.size === 0) {
      // The last of this instance: the others' presences are asked again on the next join.
      this.local.delete(key);
      this.presence.delete(key);
    }
  }

  private async refreshToken(channel: Joined, m: PhoenixMessage): Promise<void> {
    const token = (m.payload as { access_token?: unknown } | null)?.access_token;
    if (typeof token !== 'string') return send(channel.socket, reply(m.joinRef, m.ref, m.topic, 'error', { reason: 'access_token must be a string' }));
    const verified = await this.deps.verify(channel.socket, token);
    if (channel.left) return;
    if (!verified.ok) return this.closeChannel(channel, tokenReason(verified.error.message));
    channel.caller = verified.value;
    this.watchExpiry(channel);
    send(channel.socket, reply(m.joinRef, m.ref, m.topic, 'ok', {}));
  }

  /** Closes the channel when its token expires, with Supabase's system message first. */
  private watchExpiry(channel: Joined): void {
    if (channel.expiry !== null) clearTimeout(channel.expiry);
    channel.expiry = null;
    const exp = channel.caller.claims['exp'];
    if (typeof exp !== 'number') return;
    const ms = Math.min(MAX_TIMER_MS, Math.max(0, exp * 1000 - Date.now()));
    channel.expiry = setTimeout(() => this.closeChannel(channel, 'Token has expired'), ms);
    channel.expiry.unref();
  }

  private closeChannel(channel: Joined, message: string): void {
    const s = channel.socket;
    send(s, encodeMessage(channel.joinRef, null, channel.topic, 'system', { extension: 'system', status: 'error', message, channel: channel.topic.slice('realtime:'.length) }));
    send(s, encodeMessage(channel.joinRef, null, channel.topic, 'phx_close', {}));
    this.leave(channel);
  }

  private async presenceEvent(channel: Joined, m: PhoenixMessage): Promise<void> {
    const s = channel.socket;
    const answer = (status: 'ok' | 'error', response: unknown) => send(s, reply(m.joinRef, m.ref, m.topic, status, response));
    const p = (m.payload ?? {}) as { event?: unknown; payload?: unknown };
    const key = topicKey(s.ref, channel.topic);
    if (p.event === 'untrack') {
      const diff = this.table(key).untrack(channel.owner);
      if (diff !== null) {
        this.sendDiff(s.ref, channel.topic, diff);
        await this.publish({ project: s.ref, topic: channel.topic, origin: this.deps.instanceId, body: { kind: 'presence_untrack', owner: channel.owner } });
      }
      return answer('ok', {});
    }
    if (p.event !== 'track') return answer('error', { reason: 'A presence event is track or untrack' });
    const state = p.payload ?? {};
    if (typeof state !== 'object' || state === null || Array.isArray(state)) return answer('error', { reason: 'A presence payload must be an object' });
    const meta = { ...(state as Record<string, unknown>), phx_ref: `${this.deps.instanceId.slice(0, 8)}-${(this.nextPresence += 1)}` };
    const message: FanoutMessage = { project: s.ref, topic: channel.topic, origin: this.deps.instanceId, body: { kind: 'presence_track', owner: channel.owner, key: channel.presenceKey, meta } };
    const fits = encodeFanoutMessage(message);
    if (!fits.ok) return answer('error', { reason: fits.error.message });
    this.sendDiff(s.ref, channel.topic, this.table(key).track(channel.owner, channel.presenceKey, meta));
    const published = await this.publish(message);
    answer(published ? 'ok' : 'error', published ? {} : { reason: 'Realtime could not reach the other servers; try again shortly' });
  }

  private deliverBroadcast(ref: string, topic: string, body: Extract<FanoutBody, { kind: 'broadcast' }>): void {
    const set = this.local.get(topicKey(ref, topic));
    if (set === undefined) return;
    const frame = encodeBroadcast(topic, body.event, body.encoding, Buffer.from(body.data, body.encoding === 'json' ? 'utf8' : 'base64'));
    for (const c of set) {
      if (!c.self && body.sender === `${this.deps.instanceId}:${c.socket.id}`) continue;
      send(c.socket, frame);
    }
  }

  private sendDiff(ref: string, topic: string, diff: PresenceDiff | null): void {
    if (diff === null) return;
    for (const c of this.local.get(topicKey(ref, topic)) ?? []) send(c.socket, encodeMessage(c.joinRef, null, topic, 'presence_diff', diff));
  }

  private table(key: string): PresenceTable {
    let t = this.presence.get(key);
    if (t === undefined) {
      t = new PresenceTable();
      this.presence.set(key, t);
    }
    return t;
  }

  /** Publishes; false when the fanout cannot be reached (logged). */
  private async publish(message: FanoutMessage): Promise<boolean> {
    try {
      return (await this.deps.fanout.publish(message)).ok;
    } catch (error) {
      this.deps.log(error);
      return false;
    }
  }
}

const topicKey = (ref: string, topic: string) => `${ref}\n${topic}`;

/** Supabase's words for an expired token; the verifier's for anything else. */
const tokenReason = (message: string) => (message === 'JWT expired' ? 'Token has expired' : message);

function send(s: RealtimeSocket, frame: string | Buffer): void {
  if (s.ws.readyState === s.ws.OPEN) s.ws.send(frame);
}

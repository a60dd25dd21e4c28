/** What one tracked client says of itself (realtime-js's `track(payload)`), plus Phoenix's ref. */
export type PresenceMeta = Readonly<Record<string, unknown>> & { readonly phx_ref: string };

/** Phoenix's presence state: per key, the metas of every client tracked under it. */
export type PresenceState = Record<string, { metas: PresenceMeta[] }>;

/** Phoenix's `presence_diff` payload. */
export interface PresenceDiff {
  readonly joins: PresenceState;
  readonly leaves: PresenceState;
}

interface Entry {
  readonly key: string;
  readonly meta: PresenceMeta;
}

const single = (entry: Entry): PresenceState => ({ [entry.key]: { metas: [entry.meta] } });
const EMPTY: PresenceState = Object.freeze({}) as PresenceState;

/**
 * The presences of one channel topic, across sockets and API instances. Every instance applies the
 * same operations (its own clients' and those the fanout brings), each keyed by its owner (one
 * joined channel of one socket: `instance:socket:joinRef`), so the tables agree without merging:
 * tracking again replaces the owner's meta (a leave and a join), untracking twice changes nothing.
 */
export class PresenceTable {
  private readonly entries = new Map<string, Entry>();

  /** Tracks `owner` under `key`; null when nothing changed (the same meta again). */
  track(owner: string, key: string, meta: PresenceMeta): PresenceDiff | null {
    const before = this.entries.get(owner);
    const entry: Entry = { key, meta };
    if (before !== undefined && before.key === key && JSON.stringify(before.meta) === JSON.stringify(meta)) return null;
    this.entries.set(owner, entry);
    return { joins: single(entry), leaves: before === undefined ? EMPTY : single(before) };
  }

  /** Stops tracking `owner` (untrack, leave, a closed socket); null when it was not tracked. */
  untrack(owner: string): PresenceDiff | null {
    const before = this.entries.get(owner);
    if (before === undefined) return null;
    this.entries.delete(owner);
    return { joins: EMPTY, leaves: single(before) };
  }

  /** The owners tracked here whose name starts with `prefix` (an instance's own, to announce again). */
  owners(prefix: string): { owner: string; key: string; meta: PresenceMeta }[] {
    return [...this.entries].filter(([owner]) => owner.startsWith(prefix)).map(([owner, e]) => ({ owner, key: e.key, meta: e.meta }));
  }

  get size(): number {
    return this.entries.size;
  }

  /** Phoenix's `presence_state`: every key with its metas. */
  state(): PresenceState {
    const out: PresenceState = {};
    for (const { key, meta } of this.entries.values()) (out[key] ??= { metas: [] }).metas.push(meta);
    return out;
  }
}

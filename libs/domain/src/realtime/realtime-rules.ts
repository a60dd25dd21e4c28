import { type Result, err, ok } from '../shared/result.js';

/**
 * Limits of realtime on the data origin (docs/databases.md "Realtime"). Sockets are counted per
 * project and per caller of that project (an app user's `sub`, or the anon key's caller address).
 */
export interface RealtimeLimits {
  /** Open sockets of one caller (one app user, or one address with the anon key) in one project. */
  readonly socketsPerUser: number;
  /** Open sockets of one project, all callers together. */
  readonly socketsPerProject: number;
  /** Channels one socket may have joined at once. */
  readonly channelsPerSocket: number;
  /** A frame longer than this closes the socket (1009, "message too big"). */
  readonly maxFrameBytes: number;
  /** A socket that sends nothing (not even a heartbeat) for this long is closed. */
  readonly idleMs: number;
}

export const DEFAULT_REALTIME_LIMITS: RealtimeLimits = Object.freeze({
  socketsPerUser: 100,
  socketsPerProject: 500,
  channelsPerSocket: 100,
  maxFrameBytes: 64 * 1024,
  idleMs: 60_000,
});

/** What PostgreSQL's NOTIFY carries (8,000 bytes), less room for the envelope. */
export const FANOUT_MAX_PAYLOAD_BYTES = 7900;

export type RealtimeErrorCode =
  | 'REALTIME.TOO_MANY_SOCKETS'
  | 'REALTIME.TOO_MANY_CHANNELS'
  | 'REALTIME.INVALID_TOPIC'
  | 'REALTIME.INVALID_FILTER'
  | 'REALTIME.MESSAGE_TOO_LARGE';

export interface RealtimeError {
  readonly code: RealtimeErrorCode;
  readonly message: string;
}

const fail = (code: RealtimeErrorCode, message: string) => err<RealtimeError>({ code, message });

/** Open sockets now, for the cap check. */
export interface SocketCounts {
  readonly ofUser: number;
  readonly ofProject: number;
}

/** May one more socket open? The per-user cap is checked first: its message names the caller's own limit. */
export function admitSocket(counts: SocketCounts, limits: RealtimeLimits): Result<true, RealtimeError> {
  if (counts.ofUser >= limits.socketsPerUser) {
    return fail('REALTIME.TOO_MANY_SOCKETS', `Too many realtime connections: at most ${limits.socketsPerUser} per user of a project`);
  }
  if (counts.ofProject >= limits.socketsPerProject) {
    return fail('REALTIME.TOO_MANY_SOCKETS', `Too many realtime connections: at most ${limits.socketsPerProject} per project`);
  }
  return ok(true);
}

const TOPIC_PREFIX = 'realtime:';
const MAX_TOPIC_LENGTH = 255;

/**
 * A channel topic as realtime-js sends it: `realtime:<name>`, the name 1–246 printable characters
 * (the whole topic fits the binary frame's one-byte length). Topics are per project: the socket's
 * project is the data origin it reached, so a topic cannot name another project.
 */
export function parseTopic(topic: unknown): Result<string, RealtimeError> {
  if (typeof topic !== 'string' || !topic.startsWith(TOPIC_PREFIX)) {
    return fail('REALTIME.INVALID_TOPIC', 'A channel topic must start with "realtime:"');
  }
  const name = topic.slice(TOPIC_PREFIX.length);
  if (name.length === 0 || topic.length > MAX_TOPIC_LENGTH) {
    return fail('REALTIME.INVALID_TOPIC', `A channel name must have 1 to ${MAX_TOPIC_LENGTH - TOPIC_PREFIX.length} characters`);
  }
  // Printable ASCII only: the binary broadcast frame writes the topic one byte per character.
  if (!/^[\x20-\x7e]+$/.test(name)) return fail('REALTIME.INVALID_TOPIC', 'A channel name may only contain printable ASCII characters');
  return ok(topic);
}

/**
 * Phoenix channel frames as `@supabase/realtime-js` 2.109.0 speaks them with `vsn=2.0.0`
 * (its lib/serializer.ts): text frames are JSON arrays `[join_ref, ref, topic, event, payload]`;
 * a client's broadcast is a binary "user broadcast push" (kind 3) and the server's is a binary
 * "user broadcast" (kind 4).
 */
export interface PhoenixMessage {
  readonly joinRef: string | null;
  readonly ref: string | null;
  readonly topic: string;
  readonly event: string;
  readonly payload: unknown;
}

/** A client's broadcast, from a binary push or a JSON `broadcast` frame. */
export interface BroadcastPush {
  readonly joinRef: string | null;
  readonly ref: string | null;
  readonly topic: string;
  readonly event: string;
  /** The user payload: JSON text, or raw bytes (encoding 0). */
  readonly encoding: 'json' | 'binary';
  readonly data: Buffer;
}

export type ClientFrame = { readonly kind: 'message'; readonly message: PhoenixMessage } | { readonly kind: 'broadcast'; readonly push: BroadcastPush } | { readonly kind: 'malformed'; readonly reason: string };

const KIND_USER_BROADCAST_PUSH = 3;
const KIND_USER_BROADCAST = 4;
const BINARY_ENCODING = 0;
const JSON_ENCODING = 1;

const malformed = (reason: string): ClientFrame => ({ kind: 'malformed', reason });
const refOf = (v: unknown): string | null | undefined => (v === null ? null : typeof v === 'string' && v.length <= 255 ? v : typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : undefined);

/** Reads one frame from a client; anything that is not a frame realtime-js would send is `malformed`. */
export function decodeClientFrame(data: Buffer, isBinary: boolean): ClientFrame {
  if (isBinary) return decodeBroadcastPush(data);
  let value: unknown;
  try {
    value = JSON.parse(data.toString('utf8'));
  } catch {
    return malformed('Malformed message: not JSON');
  }
  if (!Array.isArray(value) || value.length !== 5) return malformed('Malformed message: expected [join_ref, ref, topic, event, payload]');
  const [joinRef, ref, topic, event, payload] = value as unknown[];
  const j = refOf(joinRef);
  const r = refOf(ref);
  if (j === undefined || r === undefined || typeof topic !== 'string' || typeof event !== 'string' || topic.length > 255 || event.length > 255) {
    return malformed('Malformed message: expected [join_ref, ref, topic, event, payload]');
  }
  if (event === 'broadcast') {
    // A broadcast as JSON (a client on vsn 1.0.0, or a payload without a string event).
    const p = payload as { event?: unknown; payload?: unknown } | null;
    if (typeof p !== 'object' || p === null || typeof p.event !== 'string' || p.event.length > 255) return malformed('Malformed broadcast: the payload needs an event');
    return { kind: 'broadcast', push: { joinRef: j, ref: r, topic, event: p.event, encoding: 'json', data: Buffer.from(JSON.stringify(p.payload ?? {}), 'utf8') } };
  }
  return { kind: 'message', message: { joinRef: j, ref: r, topic, event, payload } };
}

/** kind 3: [kind, joinRefLen, refLen, topicLen, eventLen, metaLen, encoding] then the strings, then the payload. */
function decodeBroadcastPush(data: Buffer): ClientFrame {
  const header = 7;
  if (data.length < header || data[0] !== KIND_USER_BROADCAST_PUSH) return malformed('Malformed binary message: only user broadcast pushes (kind 3) are accepted');
  const [joinRefLen, refLen, topicLen, eventLen, metaLen, encoding] = [data[1], data[2], data[3], data[4], data[5], data[6]] as number[];
  if (encoding !== BINARY_ENCODING && encoding !== JSON_ENCODING) return malformed('Malformed binary message: unknown payload encoding');
  const stringsEnd = header + joinRefLen! + refLen! + topicLen! + eventLen! + metaLen!;
  if (data.length < stringsEnd) return malformed('Malformed binary message: shorter than its header says');
  let at = header;
  // realtime-js writes these one byte per character (charCodeAt): read them back the same way.
  const take = (n: number) => data.toString('latin1', at, (at += n));
  const joinRef = take(joinRefLen!);
  const ref = take(refLen!);
  const topic = take(topicLen!);
  const event = take(eventLen!);
  take(metaLen!);
  const payload = data.subarray(stringsEnd);
  if (encoding === JSON_ENCODING) {
    try {
      JSON.parse(payload.toString('utf8'));
    } catch {
      return malformed('Malformed binary message: the payload is not JSON');
    }
  }
  return {
    kind: 'broadcast',
    push: { joinRef: joinRef === '' ? null : joinRef, ref: ref === '' ? null : ref, topic, event, encoding: encoding === JSON_ENCODING ? 'json' : 'binary', data: Buffer.from(payload) },
  };
}

export function encodeMessage(joinRef: string | null, ref: string | null, topic: string, event: string, payload: unknown): string {
  return JSON.stringify([joinRef, ref, topic, event, payload]);
}

export const reply = (joinRef: string | null, ref: string | null, topic: string, status: 'ok' | 'error', response: unknown): string =>
  encodeMessage(joinRef, ref, topic, 'phx_reply', { status, response });

/** kind 4: [kind, topicLen, eventLen, metaLen, encoding] then topic, event, metadata (UTF-8) and the payload. */
export function encodeBroadcast(topic: string, event: string, encoding: 'json' | 'binary', data: Buffer): Buffer {
  const t = Buffer.from(topic, 'utf8');
  const e = Buffer.from(event, 'utf8');
  if (t.length > 255 || e.length > 255) throw new Error('topic or event too long for a binary broadcast');
  const head = Buffer.from([KIND_USER_BROADCAST, t.length, e.length, 0, encoding === 'json' ? JSON_ENCODING : BINARY_ENCODING]);
  return Buffer.concat([head, t, e, data]);
}

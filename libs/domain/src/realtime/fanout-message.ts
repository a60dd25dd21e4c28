import { type Result, err, ok } from '../shared/result.js';
import type { FanoutMessage } from './realtime-fanout.port.js';
import { utf8Length } from '../sandbox/sandbox-path.js';
import { FANOUT_MAX_PAYLOAD_BYTES, type RealtimeError } from './realtime-rules.js';

/** The text a fanout carries for a message, or MESSAGE_TOO_LARGE past FANOUT_MAX_PAYLOAD_BYTES. */
export function encodeFanoutMessage(message: FanoutMessage): Result<string, RealtimeError> {
  const text = JSON.stringify(message);
  const bytes = utf8Length(text);
  if (bytes > FANOUT_MAX_PAYLOAD_BYTES) {
    return err({ code: 'REALTIME.MESSAGE_TOO_LARGE', message: `The message is ${bytes} bytes; a broadcast or presence message may have at most ${FANOUT_MAX_PAYLOAD_BYTES}` });
  }
  return ok(text);
}

/** A fanout's text back into a message, or null for anything malformed (never trusted blindly). */
export function decodeFanoutMessage(text: string): FanoutMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  const body = m['body'] as Record<string, unknown> | undefined;
  if (typeof m['project'] !== 'string' || typeof m['topic'] !== 'string' || typeof m['origin'] !== 'string') return null;
  if (typeof body !== 'object' || body === null || !['broadcast', 'presence_track', 'presence_untrack', 'presence_hello'].includes(body['kind'] as string)) return null;
  return value as FanoutMessage;
}

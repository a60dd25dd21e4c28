import type { Result } from '../shared/result.js';
import type { PresenceMeta } from './presence.js';
import type { RealtimeError } from './realtime-rules.js';

/** What travels between API instances for one channel topic of one project. */
export type FanoutBody =
  | {
      readonly kind: 'broadcast';
      readonly event: string;
      /** The sender's socket, so `self: false` can leave it out. */
      readonly sender: string;
      /** The user payload: JSON text, or binary as base64. */
      readonly encoding: 'json' | 'binary';
      readonly data: string;
    }
  | { readonly kind: 'presence_track'; readonly owner: string; readonly key: string; readonly meta: PresenceMeta }
  | { readonly kind: 'presence_untrack'; readonly owner: string }
  /** An instance's first client on a topic: the others announce their presences again. */
  | { readonly kind: 'presence_hello' };

export interface FanoutMessage {
  /** The project database's ref: topics of different projects never meet. */
  readonly project: string;
  readonly topic: string;
  /** The publishing API instance (it delivers to its own clients without waiting for the fanout). */
  readonly origin: string;
  readonly body: FanoutBody;
}

/**
 * Carries broadcast and presence messages between API instances (the many-machines issue's
 * fan-out): in memory for one process, PostgreSQL LISTEN/NOTIFY on Kiln's own database across
 * processes. Every subscriber — the publisher's own instance included — gets every message, each
 * publisher's messages in their order. A message over FANOUT_MAX_PAYLOAD_BYTES (JSON, UTF-8) is
 * refused (`REALTIME.MESSAGE_TOO_LARGE`) and reaches nobody. `publish` and `subscribe` reject when
 * the carrier cannot be reached.
 */
export interface RealtimeFanout {
  publish(message: FanoutMessage): Promise<Result<void, RealtimeError>>;
  /** Starts delivering to `listener`; the answer stops it. */
  subscribe(listener: (message: FanoutMessage) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

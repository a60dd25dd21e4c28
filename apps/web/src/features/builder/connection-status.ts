// What the builder's status line says about its link to the server: the sandbox feed (SSE) is
// how the builder hears the dev server's state, so while it is down that state is not known.
import type { FeedState } from '../../api/sandbox-feed';

/** Failed connection attempts in a row after which the server is called unreachable. */
export const UNREACHABLE_AFTER_FAILURES = 3;

export interface FeedHealth {
  readonly state: FeedState;
  /** Whether the feed has been open since the builder started. */
  readonly everOpen: boolean;
  /** Connections that closed (or never opened) since the feed was last open. */
  readonly failures: number;
}

export const INITIAL_FEED_HEALTH: FeedHealth = { state: 'closed', everOpen: false, failures: 0 };

/** The next health after the feed reports a state. */
export function nextFeedHealth(health: FeedHealth, state: FeedState): FeedHealth {
  if (state === 'open') return { state, everOpen: true, failures: 0 };
  // A connection that ends (or fails to start) closes; the feed then tries again.
  if (state === 'closed' && health.state !== 'closed') return { ...health, state, failures: health.failures + 1 };
  return { ...health, state };
}

export interface ConnectionProblem {
  readonly label: 'Reconnecting…' | 'Server unreachable';
  readonly message: string;
  readonly tone: 'warning' | 'destructive';
}

/**
 * Null while the feed is open, or still making its first attempt (the status from starting the
 * sandbox stands). Otherwise the status line must not claim the last known state: 'Reconnecting…'
 * after a drop, 'Server unreachable' once UNREACHABLE_AFTER_FAILURES attempts in a row failed.
 */
export function connectionProblem(health: FeedHealth): ConnectionProblem | null {
  if (health.state === 'open') return null;
  if (health.failures === 0 && !health.everOpen) return null;
  if (health.failures >= UNREACHABLE_AFTER_FAILURES) {
    return { label: 'Server unreachable', message: 'Kiln cannot reach the server; trying again', tone: 'destructive' };
  }
  return { label: 'Reconnecting…', message: 'The connection to the server was lost', tone: 'warning' };
}

import type { Clock } from '../shared/clock.port.js';

/** The failed-contact cache is emptied this often (issue #17: every 5 minutes). */
export const FAILED_CONTACT_CACHE_CLEAR_MS = 5 * 60 * 1000;

/**
 * Contacts whose delivery just failed. While a contact is in it the worker does not call the
 * audience for it again (its later deliveries wait in the outbox), so a contact the audience
 * refuses is not retried on every tick. The whole cache is emptied every 5 minutes, measured
 * on the injected clock from the first failure after the last clearing.
 */
export class FailedContactCache {
  private readonly failed = new Set<string>();
  private windowStart: number | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly clearEveryMs: number = FAILED_CONTACT_CACHE_CLEAR_MS,
  ) {}

  add(email: string): void {
    this.clearIfDue();
    if (this.windowStart === null) this.windowStart = this.clock.now().getTime();
    this.failed.add(email.toLowerCase());
  }

  has(email: string): boolean {
    this.clearIfDue();
    return this.failed.has(email.toLowerCase());
  }

  /** When the cache will next be emptied (null when it is empty). */
  clearsAt(): Date | null {
    this.clearIfDue();
    return this.windowStart === null ? null : new Date(this.windowStart + this.clearEveryMs);
  }

  get size(): number {
    this.clearIfDue();
    return this.failed.size;
  }

  private clearIfDue(): void {
    if (this.windowStart !== null && this.clock.now().getTime() - this.windowStart >= this.clearEveryMs) {
      this.failed.clear();
      this.windowStart = null;
    }
  }
}

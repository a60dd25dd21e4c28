import { type BucketRule, type BucketState, type Clock, type RateLimitDecision, type RateLimiter, takeToken } from '@kiln/domain';
import type { DataSource } from 'typeorm';
import { sql } from './sql.js';

export interface PgRateLimiterOptions {
  /** Forget the buckets that are full again once every this many takes of this process (default 1000). */
  readonly sweepEvery?: number;
}

/** When a bucket left in `state` is full again under `rule` (null: never — its rule refills nothing). */
export function fullAgainAt(state: BucketState, rule: BucketRule): Date | null {
  if (state.tokens >= rule.burst) return new Date(state.updatedAtMs);
  if (rule.refillPerSecond <= 0) return null;
  return new Date(state.updatedAtMs + Math.ceil(((rule.burst - state.tokens) / rule.refillPerSecond) * 1000));
}

/**
 * RateLimiter in PostgreSQL (`rate_limit_buckets`), shared by every API process on the database.
 * A take is one short transaction of its own (never the caller's: a take counts even when the
 * request's work rolls back, and a bucket's row is locked only for the take):
 *
 * 1. `INSERT … ON CONFLICT DO UPDATE … RETURNING` creates the key's bucket full, or locks its row
 *    — like SELECT … FOR UPDATE, but also for a key that has no row yet or whose row is being
 *    swept — so concurrent takes of one key queue on the row and each one sees the last one's result;
 * 2. the domain's token bucket (`takeToken`) decides from the stored state, at the clock's time
 *    read once the row is locked;
 * 3. the new state is written back before the commit releases the row.
 *
 * Every `sweepEvery` takes, the rows of buckets that are full again are deleted (a full bucket
 * answers as a missing one), so a flood of client addresses does not grow the table for good.
 */
export class PgRateLimiter implements RateLimiter {
  private readonly sweepEvery: number;
  private takes = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    options: PgRateLimiterOptions = {},
  ) {
    this.sweepEvery = options.sweepEvery ?? 1000;
  }

  async take(key: string, rule: BucketRule): Promise<RateLimitDecision> {
    const decision = await this.dataSource.transaction(async (manager) => {
      const {
        rows: [row],
      } = await sql<{ tokens: number; updated_at: Date }>(
        manager,
        `INSERT INTO rate_limit_buckets (key, tokens, updated_at, full_at) VALUES ($1, $2, $3, $3)
         ON CONFLICT (key) DO UPDATE SET tokens = rate_limit_buckets.tokens
         RETURNING tokens, updated_at`,
        [key, rule.burst, this.clock.now()],
      );
      if (row === undefined) throw new Error(`rate_limit_buckets: no row for ${key} after the upsert`);
      const taken = takeToken({ tokens: Number(row.tokens), updatedAtMs: row.updated_at.getTime() }, rule, this.clock.now().getTime());
      await sql(manager, 'UPDATE rate_limit_buckets SET tokens = $2, updated_at = $3, full_at = $4 WHERE key = $1', [
        key,
        taken.state.tokens,
        new Date(taken.state.updatedAtMs),
        fullAgainAt(taken.state, rule),
      ]);
      return taken;
    });
    this.takes += 1;
    if (this.takes % this.sweepEvery === 0) await this.sweep();
    return decision.allowed ? { allowed: true } : { allowed: false, retryAfterMs: decision.retryAfterMs };
  }

  /** Deletes the buckets that are full again now; returns how many. */
  async sweep(): Promise<number> {
    const { rowCount } = await sql(this.dataSource.manager, 'DELETE FROM rate_limit_buckets WHERE full_at <= $1', [this.clock.now()]);
    return rowCount;
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rate limiter's token buckets (PgRateLimiter), one row per key (an action and a client
 * address, or a user): the tokens left when the bucket was last taken from, and when. `full_at`
 * is when the bucket is full again (NULL: its rule never refills); a full bucket is the same as
 * none, so the rows past it are swept. Rows live only while their bucket is not full.
 */
export class RateLimitBuckets1795930000000 implements MigrationInterface {
  name = 'RateLimitBuckets1795930000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rate_limit_buckets (
        key        text             PRIMARY KEY,
        tokens     double precision NOT NULL CONSTRAINT rate_limit_buckets_tokens_check CHECK (tokens >= 0),
        updated_at timestamptz      NOT NULL,
        full_at    timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rate_limit_buckets');
  }
}

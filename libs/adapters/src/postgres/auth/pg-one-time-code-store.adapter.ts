import type { ConsumeCodeOutcome, ConsumeCodeRequest, IssueCodeOutcome, OneTimeCode, OneTimeCodeStore } from '@kiln/domain';
import type { PgUnitOfWork } from '../pg-unit-of-work.js';
import { sql } from '../sql.js';
import { columnsOf, toOneTimeCode } from './auth.mapper.js';
import { OneTimeCodeOrmEntity } from './one-time-code.orm-entity.js';

/**
 * Stores `$1…$9` as the code of its (email, purpose) — replacing the one there only if that one
 * was issued at least `$10` ms before. ON CONFLICT DO UPDATE works on the newest committed row
 * and locks it even when its WHERE refuses the update, so concurrent issues are serialised and
 * at most one passes the cooldown. No row comes back when the cooldown holds.
 */
export const ISSUE_CODE_SQL = `
INSERT INTO auth_one_time_codes AS c (id, email, purpose, user_id, code_hash, issued_at, expires_at, failed_attempts, consumed_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
ON CONFLICT (email, purpose) DO UPDATE
   SET id              = EXCLUDED.id,
       user_id         = EXCLUDED.user_id,
       code_hash       = EXCLUDED.code_hash,
       issued_at       = EXCLUDED.issued_at,
       expires_at      = EXCLUDED.expires_at,
       failed_attempts = EXCLUDED.failed_attempts,
       consumed_at     = EXCLUDED.consumed_at
 WHERE c.issued_at + $10::double precision * interval '1 millisecond' <= EXCLUDED.issued_at
RETURNING c.id`;

/**
 * THE verification: one conditional UPDATE. It marks consumed the code of address `$1` whose
 * purpose is one of the candidates and whose digest is that candidate's digest — if it is live
 * at `$2`: not consumed, fewer than `$5` failed tries, not expired (one-time-code.ts `isLive`).
 * Concurrent verifications of one code queue on its row lock; PostgreSQL re-checks the WHERE on
 * the row the winner committed (consumed_at is set now), so exactly one gets the row back.
 * (Digests include the purpose, so at most one candidate can match.)
 */
export const CONSUME_CODE_SQL = (returning: string) => `
UPDATE auth_one_time_codes AS c
   SET consumed_at = $2
  FROM unnest($3::text[], $4::text[]) AS candidate(purpose, code_hash)
 WHERE c.email = $1
   AND c.purpose = candidate.purpose
   AND c.code_hash = candidate.code_hash
   AND c.consumed_at IS NULL
   AND c.failed_attempts < $5
   AND c.expires_at > $2
RETURNING ${returning}`;

/**
 * A refused verification: one more failed try for each live code of the address among the
 * candidate purposes — an atomic increment (no read-then-write), re-checked on the newest row, so
 * concurrent wrong tries are all counted and none pushes a code past its limit twice.
 */
export const COUNT_FAILED_TRY_SQL = `
UPDATE auth_one_time_codes AS c
   SET failed_attempts = c.failed_attempts + 1
 WHERE c.email = $1
   AND c.purpose = ANY($3::text[])
   AND c.code_hash IS NOT NULL
   AND c.consumed_at IS NULL
   AND c.failed_attempts < $4
   AND c.expires_at > $2`;

/**
 * One-time codes in table `auth_one_time_codes`, unique per (email, purpose). `issue` is an
 * upsert guarded by the cooldown, `consume` one conditional UPDATE (plus, when it finds nothing,
 * the atomic failed-try increment). Joins the caller's transaction when one is open.
 */
export class PgOneTimeCodeStore implements OneTimeCodeStore {
  constructor(private readonly tx: PgUnitOfWork) {}

  issue(code: OneTimeCode, cooldownMs: number): Promise<IssueCodeOutcome> {
    // One transaction (or savepoint): the upsert's row lock is held while the refusal reads the
    // issue time of the code that holds the cooldown.
    return this.tx.atomically<IssueCodeOutcome>(async (manager) => {
      const { rowCount } = await sql(manager, ISSUE_CODE_SQL, [
        code.id,
        code.email,
        code.purpose,
        code.userId,
        code.codeHash,
        code.issuedAt,
        code.expiresAt,
        code.failedAttempts,
        code.consumedAt,
        cooldownMs,
      ]);
      if (rowCount === 1) return { kind: 'issued' };
      const { rows } = await sql<{ issued_at: Date }>(manager, 'SELECT issued_at FROM auth_one_time_codes WHERE email = $1 AND purpose = $2', [
        code.email,
        code.purpose,
      ]);
      if (!rows[0]) throw new Error(`The code holding the cooldown of ${code.purpose} mail vanished while locked`);
      const waited = code.issuedAt.getTime() - rows[0].issued_at.getTime();
      return { kind: 'cooling_down', retryAfterMs: cooldownMs - waited };
    });
  }

  consume(request: ConsumeCodeRequest): Promise<ConsumeCodeOutcome> {
    const purposes = request.candidates.map((c) => c.purpose);
    // A transaction (or savepoint) only so that the impossible — two codes matching — rolls back.
    return this.tx.atomically<ConsumeCodeOutcome>(async (manager) => {
      const { rows } = await sql<OneTimeCodeOrmEntity>(manager, CONSUME_CODE_SQL(columnsOf(manager, OneTimeCodeOrmEntity, 'c')), [
        request.email,
        request.now,
        purposes,
        request.candidates.map((c) => c.codeHash),
        request.maxFailedAttempts,
      ]);
      if (rows.length > 1) throw new Error(`Several one-time codes of one address matched one verification (${purposes.join(', ')})`);
      if (rows[0]) return { kind: 'accepted', code: toOneTimeCode(rows[0]) };
      await sql(manager, COUNT_FAILED_TRY_SQL, [request.email, request.now, purposes, request.maxFailedAttempts]);
      return { kind: 'rejected' };
    });
  }

  async discard(id: string): Promise<void> {
    await sql(this.tx.manager(), 'DELETE FROM auth_one_time_codes WHERE id = $1', [id]);
  }

  async purgeExpired(before: Date): Promise<number> {
    const { rowCount } = await sql(this.tx.manager(), 'DELETE FROM auth_one_time_codes WHERE expires_at < $1', [before]);
    return rowCount;
  }
}

import type { Factor, FactorChallenge, FactorStore, InsertFactorOutcome, VerificationOutcome } from '@kiln/domain';
import type { SecretBox } from '../../databases/secret-box.js';
import type { PgUnitOfWork } from '../pg-unit-of-work.js';
import { isUniqueViolation, sql } from '../sql.js';

interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string;
  factor_type: string;
  status: string;
  secret_sealed: string;
  last_used_step: string | null;
  created_at: Date;
  updated_at: Date;
}

interface ChallengeRow {
  id: string;
  factor_id: string;
  created_at: Date;
  verified_at: Date | null;
}

const FACTOR_COLUMNS = 'id, user_id, friendly_name, factor_type, status, secret_sealed, last_used_step, created_at, updated_at';

/**
 * THE replay guard: one statement that answers the challenge and moves the factor's last used
 * step — only if the challenge (of this factor) is unanswered and the step is newer than the
 * last one used. Concurrent verifications queue on the factor's row lock and PostgreSQL
 * re-checks the WHERE on the row the winner committed, so one code passes once.
 */
export const RECORD_VERIFICATION_SQL = `
WITH answered AS (
  UPDATE auth_mfa_challenges AS c
     SET verified_at = $4
   WHERE c.id = $2 AND c.factor_id = $1 AND c.verified_at IS NULL
     AND EXISTS (SELECT 1 FROM auth_mfa_factors f WHERE f.id = $1 AND (f.last_used_step IS NULL OR f.last_used_step < $3))
  RETURNING c.factor_id
)
UPDATE auth_mfa_factors AS f
   SET status = 'verified', last_used_step = $3, updated_at = $4
  FROM answered
 WHERE f.id = answered.factor_id
   AND (f.last_used_step IS NULL OR f.last_used_step < $3)
RETURNING f.id`;

/** Where the sealed secret is bound: another row's ciphertext copied here fails to open. */
const secretContext = (factorId: string): string => `auth_mfa_factors:${factorId}:secret`;

function parseStep(value: string | null): number | null {
  if (value === null) return null;
  const step = Number(value);
  if (!Number.isSafeInteger(step) || step < 0) throw new Error(`auth_mfa_factors.last_used_step out of range: ${value}`);
  return step;
}

/**
 * Factors in `auth_mfa_factors` with the TOTP secret sealed by the SecretBox (never stored in
 * clear), challenges in `auth_mfa_challenges`. Each method is one statement, or one transaction
 * (a savepoint of the caller's).
 */
export class PgFactorStore implements FactorStore {
  constructor(
    private readonly tx: PgUnitOfWork,
    private readonly box: SecretBox,
  ) {}

  async listForUser(userId: string): Promise<readonly Factor[]> {
    const { rows } = await sql<FactorRow>(this.tx.manager(), `SELECT ${FACTOR_COLUMNS} FROM auth_mfa_factors WHERE user_id = $1 ORDER BY created_at, id`, [userId]);
    return rows.map((row) => this.toFactor(row));
  }

  async findById(id: string): Promise<Factor | null> {
    const { rows } = await sql<FactorRow>(this.tx.manager(), `SELECT ${FACTOR_COLUMNS} FROM auth_mfa_factors WHERE id = $1`, [id]);
    return rows[0] ? this.toFactor(rows[0]) : null;
  }

  async insert(factor: Factor): Promise<InsertFactorOutcome> {
    try {
      await this.tx.atomically((manager) =>
        sql(
          manager,
          `INSERT INTO auth_mfa_factors (${FACTOR_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            factor.id,
            factor.userId,
            factor.friendlyName,
            factor.factorType,
            factor.status,
            this.box.seal(factor.secret, secretContext(factor.id)),
            factor.lastUsedStep,
            factor.createdAt,
            factor.updatedAt,
          ],
        ),
      );
      return 'inserted';
    } catch (error) {
      if (isUniqueViolation(error, 'auth_mfa_factors_friendly_name_key')) return 'name_taken';
      throw error;
    }
  }

  async deleteUnverified(userId: string): Promise<void> {
    await sql(this.tx.manager(), `DELETE FROM auth_mfa_factors WHERE user_id = $1 AND status = 'unverified'`, [userId]);
  }

  async delete(factorId: string, userId: string): Promise<boolean> {
    const { rowCount } = await sql(this.tx.manager(), 'DELETE FROM auth_mfa_factors WHERE id = $1 AND user_id = $2', [factorId, userId]);
    return rowCount > 0;
  }

  async createChallenge(challenge: FactorChallenge): Promise<void> {
    await sql(this.tx.manager(), 'INSERT INTO auth_mfa_challenges (id, factor_id, created_at, verified_at) VALUES ($1, $2, $3, $4)', [
      challenge.id,
      challenge.factorId,
      challenge.createdAt,
      challenge.verifiedAt,
    ]);
  }

  async findChallenge(id: string): Promise<FactorChallenge | null> {
    const { rows } = await sql<ChallengeRow>(this.tx.manager(), 'SELECT id, factor_id, created_at, verified_at FROM auth_mfa_challenges WHERE id = $1', [id]);
    const row = rows[0];
    return row ? Object.freeze({ id: row.id, factorId: row.factor_id, createdAt: row.created_at, verifiedAt: row.verified_at }) : null;
  }

  async recordVerification(input: { factorId: string; challengeId: string; step: number; at: Date }): Promise<VerificationOutcome> {
    const { rows } = await this.tx.atomically((manager) =>
      sql<{ id: string }>(manager, RECORD_VERIFICATION_SQL, [input.factorId, input.challengeId, input.step, input.at]),
    );
    return rows.length === 1 ? 'recorded' : 'already_used';
  }

  private toFactor(row: FactorRow): Factor {
    if (row.factor_type !== 'totp') throw new Error(`auth_mfa_factors.factor_type is unexpected: ${row.factor_type}`);
    if (row.status !== 'verified' && row.status !== 'unverified') throw new Error(`auth_mfa_factors.status is unexpected: ${row.status}`);
    return Object.freeze({
      id: row.id,
      userId: row.user_id,
      friendlyName: row.friendly_name,
      factorType: 'totp',
      status: row.status,
      secret: this.box.open(row.secret_sealed, secretContext(row.id)),
      lastUsedStep: parseStep(row.last_used_step),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    });
  }
}

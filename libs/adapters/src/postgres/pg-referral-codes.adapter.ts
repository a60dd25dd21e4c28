import type { ReferralCode, ReferralCodes } from '@kiln/domain';
import type { PgUnitOfWork } from './pg-unit-of-work.js';
import { sql } from './sql.js';

/** Whether a profile holds the code (the unique index on profiles.referral_code has the last word). */
export class PgReferralCodes implements ReferralCodes {
  constructor(private readonly tx: PgUnitOfWork) {}

  async isTaken(code: ReferralCode): Promise<boolean> {
    const { rows } = await sql<{ taken: boolean }>(
      this.tx.manager(),
      'SELECT EXISTS (SELECT 1 FROM profiles WHERE referral_code = $1) AS taken',
      [code],
    );
    return rows[0]?.taken === true;
  }
}

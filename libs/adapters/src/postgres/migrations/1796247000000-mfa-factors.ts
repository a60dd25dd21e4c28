import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Second factors (PgFactorStore): TOTP factors with their secret sealed (AES-256-GCM under
 * DATABASE_SECRETS_KEY, bound to the factor id), their challenges, and aal2 sessions.
 */
export class MfaFactors1796247000000 implements MigrationInterface {
  name = 'MfaFactors1796247000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE auth_mfa_factors (
        id             text        PRIMARY KEY,
        user_id        text        NOT NULL CONSTRAINT auth_mfa_factors_user_id_fkey REFERENCES auth_users (id) ON DELETE CASCADE,
        friendly_name  text        NOT NULL DEFAULT '',
        factor_type    text        NOT NULL CONSTRAINT auth_mfa_factors_factor_type_check CHECK (factor_type = 'totp'),
        status         text        NOT NULL CONSTRAINT auth_mfa_factors_status_check CHECK (status IN ('unverified', 'verified')),
        secret_sealed  text        NOT NULL,
        last_used_step bigint      CONSTRAINT auth_mfa_factors_last_used_step_check CHECK (last_used_step >= 0),
        created_at     timestamptz NOT NULL,
        updated_at     timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX auth_mfa_factors_user_id_idx ON auth_mfa_factors (user_id)`);
    await q.query(`CREATE UNIQUE INDEX auth_mfa_factors_friendly_name_key ON auth_mfa_factors (user_id, friendly_name) WHERE friendly_name <> ''`);
    await q.query(`
      CREATE TABLE auth_mfa_challenges (
        id          text        PRIMARY KEY,
        factor_id   text        NOT NULL CONSTRAINT auth_mfa_challenges_factor_id_fkey REFERENCES auth_mfa_factors (id) ON DELETE CASCADE,
        created_at  timestamptz NOT NULL,
        verified_at timestamptz
      )`);
    await q.query(`CREATE INDEX auth_mfa_challenges_factor_id_idx ON auth_mfa_challenges (factor_id)`);
    await q.query(`ALTER TABLE auth_sessions DROP CONSTRAINT auth_sessions_aal_check`);
    await q.query(`ALTER TABLE auth_sessions ADD CONSTRAINT auth_sessions_aal_check CHECK (aal IN ('aal1', 'aal2'))`);
    await q.query(`ALTER TABLE auth_sessions DROP CONSTRAINT auth_sessions_end_reason_check`);
    await q.query(`ALTER TABLE auth_sessions ADD CONSTRAINT auth_sessions_end_reason_check
                     CHECK (end_reason IN ('logout', 'refresh_token_reused', 'password_changed', 'account_deleted', 'mfa_upgraded'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE auth_sessions SET end_reason = 'logout' WHERE end_reason = 'mfa_upgraded'`);
    await q.query(`UPDATE auth_sessions SET aal = 'aal1', ended_at = COALESCE(ended_at, now()), end_reason = COALESCE(end_reason, 'logout') WHERE aal = 'aal2'`);
    await q.query(`ALTER TABLE auth_sessions DROP CONSTRAINT auth_sessions_end_reason_check`);
    await q.query(`ALTER TABLE auth_sessions ADD CONSTRAINT auth_sessions_end_reason_check
                     CHECK (end_reason IN ('logout', 'refresh_token_reused', 'password_changed', 'account_deleted'))`);
    await q.query(`ALTER TABLE auth_sessions DROP CONSTRAINT auth_sessions_aal_check`);
    await q.query(`ALTER TABLE auth_sessions ADD CONSTRAINT auth_sessions_aal_check CHECK (aal = 'aal1')`);
    await q.query('DROP TABLE auth_mfa_challenges');
    await q.query('DROP TABLE auth_mfa_factors');
  }
}

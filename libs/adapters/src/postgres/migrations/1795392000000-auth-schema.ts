import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The built-in auth (GoTrue-compatible): accounts, one-time codes, sessions and their refresh
 * tokens. Ids are text like the rest of the schema (the API issues UUIDs, tests may not).
 *
 * Invariants the database holds as well as the adapters:
 * - one live (not deleted) account per address, compared case-insensitively;
 * - at most one code per (address, purpose);
 * - a session's refresh tokens form one chain (one token per generation), at most one of them
 *   active (not revoked).
 */
export class AuthSchema1795392000000 implements MigrationInterface {
  name = 'AuthSchema1795392000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE auth_users (
        id                   text PRIMARY KEY,
        identity_id          text NOT NULL,
        email                text NOT NULL,
        password_hash        text,
        email_confirmed_at   timestamptz,
        phone                text,
        user_metadata        jsonb NOT NULL DEFAULT '{}'::jsonb
                             CONSTRAINT auth_users_user_metadata_check CHECK (jsonb_typeof(user_metadata) = 'object'),
        app_metadata         jsonb NOT NULL DEFAULT '{}'::jsonb
                             CONSTRAINT auth_users_app_metadata_check CHECK (jsonb_typeof(app_metadata) = 'object'),
        created_at           timestamptz NOT NULL,
        updated_at           timestamptz NOT NULL,
        last_sign_in_at      timestamptz,
        confirmation_sent_at timestamptz,
        recovery_sent_at     timestamptz,
        email_change         text,
        email_change_sent_at timestamptz,
        deleted_at           timestamptz
      )`);
    // One live account per address; a soft-deleted account frees its address.
    await q.query(`CREATE UNIQUE INDEX auth_users_email_key ON auth_users (lower(email)) WHERE deleted_at IS NULL`);

    await q.query(`
      CREATE TABLE auth_one_time_codes (
        id              text PRIMARY KEY,
        email           text NOT NULL,
        purpose         text NOT NULL
                        CONSTRAINT auth_one_time_codes_purpose_check CHECK (purpose IN ('signup', 'magiclink', 'recovery', 'email_change')),
        -- null for a decoy (an address without an account)
        user_id         text CONSTRAINT auth_one_time_codes_user_id_fkey REFERENCES auth_users (id),
        code_hash       text,
        issued_at       timestamptz NOT NULL,
        expires_at      timestamptz NOT NULL,
        failed_attempts integer NOT NULL DEFAULT 0 CONSTRAINT auth_one_time_codes_failed_attempts_check CHECK (failed_attempts >= 0),
        consumed_at     timestamptz,
        CONSTRAINT auth_one_time_codes_email_purpose_key UNIQUE (email, purpose)
      )`);
    await q.query(`CREATE INDEX auth_one_time_codes_expires_at_idx ON auth_one_time_codes (expires_at)`);
    await q.query(`CREATE INDEX auth_one_time_codes_user_id_idx ON auth_one_time_codes (user_id) WHERE user_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE auth_sessions (
        id           text PRIMARY KEY,
        user_id      text NOT NULL CONSTRAINT auth_sessions_user_id_fkey REFERENCES auth_users (id),
        created_at   timestamptz NOT NULL,
        refreshed_at timestamptz,
        ended_at     timestamptz,
        end_reason   text CONSTRAINT auth_sessions_end_reason_check
                     CHECK (end_reason IN ('logout', 'refresh_token_reused', 'password_changed', 'account_deleted')),
        aal          text NOT NULL DEFAULT 'aal1' CONSTRAINT auth_sessions_aal_check CHECK (aal = 'aal1'),
        amr          jsonb NOT NULL DEFAULT '[]'::jsonb CONSTRAINT auth_sessions_amr_check CHECK (jsonb_typeof(amr) = 'array'),
        token_secret text NOT NULL,
        CONSTRAINT auth_sessions_ended_check CHECK ((ended_at IS NULL) = (end_reason IS NULL))
      )`);
    await q.query(`CREATE INDEX auth_sessions_user_id_live_idx ON auth_sessions (user_id) WHERE ended_at IS NULL`);

    await q.query(`
      CREATE TABLE auth_refresh_tokens (
        id         bigserial PRIMARY KEY,
        token_hash text NOT NULL CONSTRAINT auth_refresh_tokens_token_hash_key UNIQUE,
        session_id text NOT NULL CONSTRAINT auth_refresh_tokens_session_id_fkey REFERENCES auth_sessions (id) ON DELETE CASCADE,
        generation integer NOT NULL CONSTRAINT auth_refresh_tokens_generation_check CHECK (generation >= 0),
        created_at timestamptz NOT NULL,
        revoked_at timestamptz,
        CONSTRAINT auth_refresh_tokens_session_generation_key UNIQUE (session_id, generation)
      )`);
    // The active token: at most one per session (rotation revokes the old one before inserting the next).
    await q.query(`CREATE UNIQUE INDEX auth_refresh_tokens_one_active ON auth_refresh_tokens (session_id) WHERE revoked_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE auth_refresh_tokens');
    await q.query('DROP TABLE auth_sessions');
    await q.query('DROP TABLE auth_one_time_codes');
    await q.query('DROP TABLE auth_users');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Profiles, projects, the credit ledger and the mail outbox. Hand-written SQL; tables are
 * unqualified so they land in the connection's search_path (see data-source.ts).
 *
 * Ids are text: the domain treats them as opaque strings (auth may issue UUIDs or not).
 */
export class InitialSchema1795305600000 implements MigrationInterface {
  name = 'InitialSchema1795305600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE profiles (
        id                       text PRIMARY KEY,
        name                     text NOT NULL DEFAULT '',
        email                    text NOT NULL,
        date_of_birth            date,
        organization             text,
        role                     text NOT NULL DEFAULT 'other',
        subscription_plan        text NOT NULL DEFAULT 'free',
        subscription_id          text,
        subscription_status      text,
        billing_interval         text CONSTRAINT profiles_billing_interval_check CHECK (billing_interval IN ('monthly', 'annual')),
        customer_id              text,
        preferred_currency       text NOT NULL DEFAULT 'USD' CONSTRAINT profiles_preferred_currency_check CHECK (preferred_currency IN ('USD', 'INR')),
        referral_code            text NOT NULL CONSTRAINT profiles_referral_code_key UNIQUE,
        -- no foreign key: the referrer is recorded once and never cleared (see PgProfileRepository)
        referred_by              text,
        created_at               timestamptz NOT NULL DEFAULT now(),
        updated_at               timestamptz NOT NULL DEFAULT now(),
        last_sign_in_at          timestamptz,
        billing_cycle_start_date timestamptz,
        billing_cycle_end_date   timestamptz,
        first_purchased_date     timestamptz,
        subscription_end_date    timestamptz,
        pro_multiplier           smallint NOT NULL DEFAULT 1 CONSTRAINT profiles_pro_multiplier_check CHECK (pro_multiplier IN (1, 2, 3))
      )`);
    await q.query(`CREATE INDEX profiles_referred_by_idx ON profiles (referred_by) WHERE referred_by IS NOT NULL`);

    await q.query(`
      CREATE TABLE projects (
        id         text PRIMARY KEY,
        creator_id text NOT NULL CONSTRAINT projects_creator_id_fkey REFERENCES profiles (id),
        name       text NOT NULL,
        slug       text NOT NULL CONSTRAINT projects_slug_key UNIQUE,
        status     text NOT NULL DEFAULT 'active' CONSTRAINT projects_status_check CHECK (status IN ('active', 'archived', 'deleted')),
        domain     text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX projects_creator_status_idx ON projects (creator_id, status)`);

    // One row per user: the fold of the user's entries. The CHECKs are invariants 1 and 2 of
    // docs/domain.md (conservation, never negative), enforced by the database as well.
    await q.query(`
      CREATE TABLE credit_accounts (
        user_id          text PRIMARY KEY CONSTRAINT credit_accounts_user_id_fkey REFERENCES profiles (id),
        monthly          bigint NOT NULL DEFAULT 0 CONSTRAINT credit_accounts_monthly_check CHECK (monthly >= 0),
        referral         bigint NOT NULL DEFAULT 0 CONSTRAINT credit_accounts_referral_check CHECK (referral >= 0),
        addon            bigint NOT NULL DEFAULT 0 CONSTRAINT credit_accounts_addon_check CHECK (addon >= 0),
        cycle_start      timestamptz,
        cycle_end        timestamptz,
        cycle_allowance  bigint CONSTRAINT credit_accounts_cycle_allowance_check CHECK (cycle_allowance >= 0),
        granted          bigint NOT NULL DEFAULT 0,
        expired          bigint NOT NULL DEFAULT 0,
        consumed         bigint NOT NULL DEFAULT 0,
        refunded         bigint NOT NULL DEFAULT 0,
        cycle_usage      bigint NOT NULL DEFAULT 0,
        referral_granted bigint NOT NULL DEFAULT 0,
        addon_granted    bigint NOT NULL DEFAULT 0,
        CONSTRAINT credit_accounts_cycle_check
          CHECK ((cycle_start IS NULL) = (cycle_end IS NULL) AND (cycle_start IS NOT NULL OR cycle_allowance IS NULL)),
        CONSTRAINT credit_accounts_conservation_check
          CHECK (granted - expired = monthly + referral + addon + consumed - refunded)
      )`);

    await q.query(`
      CREATE TABLE credit_entries (
        id               bigserial PRIMARY KEY,
        account_id       text NOT NULL CONSTRAINT credit_entries_account_id_fkey REFERENCES credit_accounts (user_id),
        key              text NOT NULL,
        kind             text NOT NULL CONSTRAINT credit_entries_kind_check CHECK (kind IN ('grant', 'debit', 'refund', 'cycle')),
        at               timestamptz NOT NULL,
        amount           bigint,
        bucket           text CONSTRAINT credit_entries_bucket_check CHECK (bucket IN ('referral', 'addon')),
        reason           text,
        metered          boolean,
        monthly_portion  bigint NOT NULL DEFAULT 0 CONSTRAINT credit_entries_monthly_portion_check CHECK (monthly_portion >= 0),
        referral_portion bigint NOT NULL DEFAULT 0 CONSTRAINT credit_entries_referral_portion_check CHECK (referral_portion >= 0),
        addon_portion    bigint NOT NULL DEFAULT 0 CONSTRAINT credit_entries_addon_portion_check CHECK (addon_portion >= 0),
        cycle_start      timestamptz,
        cycle_end        timestamptz,
        allowance        bigint,
        expired          bigint,
        debit_key        text,
        CONSTRAINT credit_entries_account_key_key UNIQUE (account_id, key),
        -- what each kind must carry (COALESCE: a NULL comparison must fail the check, not pass it)
        CONSTRAINT credit_entries_shape_check CHECK (COALESCE(CASE kind
          WHEN 'grant'  THEN amount > 0 AND bucket IS NOT NULL AND reason IS NOT NULL
          WHEN 'debit'  THEN amount > 0 AND metered IS NOT NULL
          WHEN 'refund' THEN debit_key IS NOT NULL
          WHEN 'cycle'  THEN cycle_end > cycle_start AND expired >= 0 AND (allowance IS NULL OR allowance >= 0)
        END, false))
      )`);
    // Invariant 8 (one refund per debit) as an index, whatever key the refund uses.
    await q.query(`CREATE UNIQUE INDEX credit_entries_one_refund_per_debit ON credit_entries (account_id, debit_key) WHERE kind = 'refund'`);
    // Invariant 6 (append-only): entries are never changed or deleted.
    await q.query(`
      CREATE FUNCTION credit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'credit_entries is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
      END
      $$`);
    await q.query(`
      CREATE TRIGGER credit_entries_append_only BEFORE UPDATE OR DELETE ON credit_entries
        FOR EACH ROW EXECUTE FUNCTION credit_entries_append_only()`);

    await q.query(`
      CREATE TABLE mail_outbox (
        id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "to"       text NOT NULL,
        subject    text NOT NULL,
        text       text NOT NULL,
        html       text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX mail_outbox_to_idx ON mail_outbox (lower("to"), created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE mail_outbox');
    await q.query('DROP TABLE credit_entries');
    await q.query('DROP FUNCTION credit_entries_append_only()');
    await q.query('DROP TABLE credit_accounts');
    await q.query('DROP TABLE projects');
    await q.query('DROP TABLE profiles');
  }
}

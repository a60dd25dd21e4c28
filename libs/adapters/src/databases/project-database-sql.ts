import { databaseNames } from '@kiln/domain';
import { STORAGE_SCHEMA_SQL } from '../storage/storage-schema-sql.js';

/** A double-quoted identifier; the names come from databaseNames() (a validated ref), quoting is belt and braces. */
export const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * The statements that make one project database safe (docs/databases.md "Conventions"), run by
 * Kiln's admin (superuser) connection inside the new database, in one transaction. Idempotent:
 * a retry after a crash re-applies them over what exists.
 */
export function projectDatabaseSetup(ref: string, options: { readonly eventTrigger: boolean } = { eventTrigger: true }): string {
  const n = databaseNames(ref);
  const owner = ident(n.owner);
  return `${baseSetup(n, owner)}${storageSetup(owner)}${options.eventTrigger ? RLS_EVENT_TRIGGER + REALTIME_TRIGGERS : NOTIFY_CHANGE + ATTACH_REALTIME_TRIGGERS}`;
}

function baseSetup(n: ReturnType<typeof databaseNames>, owner: string): string {
  return `
REVOKE ALL ON DATABASE ${ident(n.database)} FROM PUBLIC;
GRANT CONNECT ON DATABASE ${ident(n.database)} TO ${ident(n.authenticator)};

-- public belongs to the owner: migrations (SET ROLE owner) create tables there; nobody else may.
ALTER SCHEMA public OWNER TO ${owner};
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO anon, authenticated;
-- Tables the owner creates later are reachable by the request roles; row-level security decides the rows.
ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO anon, authenticated;
ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO anon, authenticated;
ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA public GRANT EXECUTE ON FUNCTIONS TO anon, authenticated;

-- auth.uid() / auth.role() / auth.jwt() read the claims the data API sets per request (SET LOCAL).
-- Owned by the admin, so a migration cannot redefine them.
CREATE SCHEMA IF NOT EXISTS auth;
REVOKE ALL ON SCHEMA auth FROM PUBLIC;
GRANT USAGE ON SCHEMA auth TO anon, authenticated, ${owner};
CREATE OR REPLACE FUNCTION auth.jwt() RETURNS jsonb LANGUAGE sql STABLE
  AS $$ SELECT coalesce(nullif(current_setting('request.jwt.claims', true), '')::jsonb, '{}'::jsonb) $$;
CREATE OR REPLACE FUNCTION auth.uid() RETURNS uuid LANGUAGE sql STABLE
  AS $$ SELECT nullif(auth.jwt() ->> 'sub', '')::uuid $$;
CREATE OR REPLACE FUNCTION auth.role() RETURNS text LANGUAGE sql STABLE
  AS $$ SELECT nullif(auth.jwt() ->> 'role', '') $$;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA auth FROM PUBLIC;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA auth TO anon, authenticated, ${owner};

-- Kiln's own bookkeeping in the project database (the migrations record); no request role sees it.
CREATE SCHEMA IF NOT EXISTS kiln;
REVOKE ALL ON SCHEMA kiln FROM PUBLIC;
CREATE TABLE IF NOT EXISTS kiln.schema_migrations (name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
`;
}

/**
 * Storage (docs/databases.md "Storage"): the tables belong to the owner, so the app's migrations
 * (SET ROLE owner) can write policies on them (CREATE POLICY needs the table's owner); so do the
 * kiln_* functions, whose owner therefore reads past row-level security.
 */
function storageSetup(owner: string): string {
  return `${STORAGE_SCHEMA_SQL}
GRANT USAGE ON SCHEMA storage TO ${owner};
ALTER TABLE storage.buckets OWNER TO ${owner};
ALTER TABLE storage.objects OWNER TO ${owner};
ALTER FUNCTION storage.kiln_bucket(text) OWNER TO ${owner};
ALTER FUNCTION storage.kiln_public_object(text, text) OWNER TO ${owner};
ALTER FUNCTION storage.kiln_used_bytes() OWNER TO ${owner};
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA storage TO ${owner};
`;
}

/** Needs a superuser (PostgreSQL's rule for event triggers): the local provider has one, Neon does not. */
const RLS_EVENT_TRIGGER = `
-- Row-level security on every table created in public, whoever creates it: nothing is readable by default.
CREATE OR REPLACE FUNCTION kiln.enable_rls_on_new_tables() RETURNS event_trigger LANGUAGE plpgsql AS $$
DECLARE created record;
BEGIN
  FOR created IN SELECT * FROM pg_event_trigger_ddl_commands()
    WHERE object_type IN ('table', 'partitioned table') AND schema_name = 'public'
  LOOP
    EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', created.object_identity);
  END LOOP;
END $$;
REVOKE ALL ON FUNCTION kiln.enable_rls_on_new_tables() FROM PUBLIC;
DROP EVENT TRIGGER IF EXISTS kiln_enable_rls_on_new_tables;
CREATE EVENT TRIGGER kiln_enable_rls_on_new_tables ON ddl_command_end
  WHEN TAG IN ('CREATE TABLE', 'CREATE TABLE AS', 'SELECT INTO')
  EXECUTE FUNCTION kiln.enable_rls_on_new_tables();
`;

/** The NOTIFY channel of a project database's row changes (realtime's postgres_changes). */
export const CHANGES_CHANNEL = 'kiln_realtime';

/**
 * Realtime's postgres_changes (docs/databases.md "Realtime"): a row trigger on every table of
 * public NOTIFYs the table, the operation and the primary key — never the row, which the server
 * re-reads as each subscriber's role so row-level security holds (NOTIFY's payload is capped at
 * 8,000 bytes; past 7,900 only the table and operation go, and the change is not delivered).
 * Sent at commit, never for a rolled-back change. A table without a primary key has no changes.
 * New tables get the trigger from an event trigger (a superuser's: not on Neon), existing ones here.
 */
/** The trigger function of postgres_changes: NOTIFY with the table, the operation and the key. */
const NOTIFY_CHANGE = `
CREATE OR REPLACE FUNCTION kiln.notify_change() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog AS $$
DECLARE
  keys text[];
  pk jsonb;
  old_pk jsonb;
  payload text;
BEGIN
  SELECT array_agg(a.attname::text ORDER BY a.attnum) INTO keys
    FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
    WHERE i.indrelid = TG_RELID AND i.indisprimary;
  IF keys IS NULL THEN RETURN NULL; END IF;
  IF TG_OP <> 'DELETE' THEN SELECT jsonb_object_agg(k, to_jsonb(NEW) -> k) INTO pk FROM unnest(keys) AS k; END IF;
  IF TG_OP <> 'INSERT' THEN SELECT jsonb_object_agg(k, to_jsonb(OLD) -> k) INTO old_pk FROM unnest(keys) AS k; END IF;
  payload := jsonb_build_object('schema', TG_TABLE_SCHEMA, 'table', TG_TABLE_NAME, 'type', TG_OP, 'pk', pk, 'old_pk', old_pk, 'at', now())::text;
  IF octet_length(payload) > 7900 THEN
    payload := jsonb_build_object('schema', TG_TABLE_SCHEMA, 'table', TG_TABLE_NAME, 'type', TG_OP, 'too_big', true)::text;
  END IF;
  PERFORM pg_notify('${CHANGES_CHANNEL}', payload);
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION kiln.notify_change() FROM PUBLIC;

`;

/** Needs a superuser (an event trigger): every table created later gets the trigger (local provider). */
const REALTIME_EVENT_TRIGGER = `
CREATE OR REPLACE FUNCTION kiln.add_realtime_trigger() RETURNS event_trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
DECLARE created record;
BEGIN
  FOR created IN SELECT * FROM pg_event_trigger_ddl_commands()
    WHERE object_type = 'table' AND schema_name = 'public'
  LOOP
    EXECUTE format('CREATE OR REPLACE TRIGGER kiln_realtime AFTER INSERT OR UPDATE OR DELETE ON %s FOR EACH ROW EXECUTE FUNCTION kiln.notify_change()', created.object_identity);
  END LOOP;
END $$;
REVOKE ALL ON FUNCTION kiln.add_realtime_trigger() FROM PUBLIC;
DROP EVENT TRIGGER IF EXISTS kiln_add_realtime_trigger;
CREATE EVENT TRIGGER kiln_add_realtime_trigger ON ddl_command_end
  WHEN TAG IN ('CREATE TABLE', 'CREATE TABLE AS', 'SELECT INTO')
  EXECUTE FUNCTION kiln.add_realtime_trigger();

`;

/**
 * Puts the trigger on every table of public that exists: at setup, and on Neon (no event trigger)
 * after each migration, run by the tables' owner (PgSchemaMigrator in owner mode).
 */
export const ATTACH_REALTIME_TRIGGERS = `
DO $$
DECLARE t record;
BEGIN
  FOR t IN SELECT c.oid::regclass AS name FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
    WHERE ns.nspname = 'public' AND c.relkind = 'r'
  LOOP
    EXECUTE format('CREATE OR REPLACE TRIGGER kiln_realtime AFTER INSERT OR UPDATE OR DELETE ON %s FOR EACH ROW EXECUTE FUNCTION kiln.notify_change()', t.name);
  END LOOP;
END $$;
`;

const REALTIME_TRIGGERS = NOTIFY_CHANGE + REALTIME_EVENT_TRIGGER + ATTACH_REALTIME_TRIGGERS;

/**
 * The size of the project's data (tables, their indexes and TOAST, in every schema but the catalog:
 * not pg_database_size, whose ~7.5 MB of catalog every empty database has) and the tables of public
 * with RLS, row estimates and columns, as one JSON row.
 */
export const INSPECT_SQL = `
SELECT (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)
    FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'm') AND ns.nspname NOT IN ('pg_catalog', 'information_schema')
      AND ns.nspname NOT LIKE 'pg\\_toast%' AND ns.nspname NOT LIKE 'pg\\_temp\\_%')::bigint AS size_bytes,
  coalesce((
    SELECT json_agg(json_build_object(
      'name', c.relname,
      'rls', c.relrowsecurity,
      -- reltuples stays -1 until the table is first analysed (autovacuum waits for 50 rows), so a
      -- new app's few rows read "no rows yet": the live count of the statistics comes first.
      'rows', CASE WHEN pg_stat_get_live_tuples(c.oid) > 0 THEN pg_stat_get_live_tuples(c.oid) ELSE greatest(c.reltuples, 0)::bigint END,
      'columns', coalesce((
        SELECT json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod), 'nullable', NOT a.attnotnull) ORDER BY a.attnum)
        FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '[]'::json)
    ) ORDER BY c.relname)
    FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
    WHERE ns.nspname = 'public' AND c.relkind IN ('r', 'p')
  ), '[]'::json) AS tables`;

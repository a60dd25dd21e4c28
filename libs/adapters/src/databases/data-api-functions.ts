import type pg from 'pg';

/**
 * SQL functions every project database gets in `public` for the data API (SPEC §7, "bulk update
 * via RPC 'update_many_records'"). `update_many_records(table_name text, records jsonb)` updates
 * each record of the array by its `id` with the other keys it carries, and returns how many rows
 * it updated. It is SECURITY INVOKER: it runs as the caller (anon/authenticated) under the table's
 * row-level security, so it can change nothing the caller could not change with PATCH. A record
 * that updates no row (unknown id, or hidden by a policy) makes the whole call fail with SPEC §8's
 * 'Failed to update some records: …' and nothing changes. Only tables of `public`; names go
 * through format('%I'), values through jsonb_populate_record.
 */
export const DATA_API_FUNCTIONS_SQL = `
create or replace function public.update_many_records(table_name text, records jsonb)
returns integer
language plpgsql
security invoker
set search_path = pg_catalog, pg_temp
as $fn$
declare
  rel regclass := to_regclass(format('public.%I', table_name));
  rec jsonb;
  cols text;
  n integer;
  updated integer := 0;
  failed text[] := '{}';
begin
  if rel is null then
    raise exception 'Failed to update some records: no table public.%', table_name using errcode = '42P01';
  end if;
  if jsonb_typeof(records) is distinct from 'array' or jsonb_array_length(records) > 1000 then
    raise exception 'Failed to update some records: records must be an array of at most 1000 objects' using errcode = '22023';
  end if;
  for rec in select value from jsonb_array_elements(records) loop
    if jsonb_typeof(rec) <> 'object' or not rec ? 'id' then
      failed := failed || coalesce(rec->>'id', '(no id)');
      continue;
    end if;
    select string_agg(format('%I = r.%I', a.attname, a.attname), ', ')
      into cols
      from pg_attribute a
     where a.attrelid = rel and a.attnum > 0 and not a.attisdropped and a.attname <> 'id' and rec ? a.attname::text;
    if cols is null then
      failed := failed || (rec->>'id');
      continue;
    end if;
    execute format('update %s as t set %s from jsonb_populate_record(null::%s, $1) as r where t.id = r.id', rel, cols, rel) using rec;
    get diagnostics n = row_count;
    if n = 0 then
      failed := failed || (rec->>'id');
    end if;
    updated := updated + n;
  end loop;
  if cardinality(failed) > 0 then
    raise exception 'Failed to update some records: %', array_to_string(failed, ', ') using errcode = 'P0001';
  end if;
  return updated;
end
$fn$;
revoke all on function public.update_many_records(text, jsonb) from public;
grant execute on function public.update_many_records(text, jsonb) to anon, authenticated;
`;

/**
 * Installs the data API's functions in a project database (the provisioner calls it right after
 * creating the database, through Kiln's admin connection to `kiln_app_<ref>`, then gives the
 * function to the owner role so migrations may replace it).
 */
export async function installDataApiFunctions(adminClient: Pick<pg.Client, 'query'>, ownerRole?: string): Promise<void> {
  await adminClient.query(DATA_API_FUNCTIONS_SQL);
  if (ownerRole !== undefined) {
    await adminClient.query(`alter function public.update_many_records(text, jsonb) owner to "${ownerRole.replace(/"/g, '""')}"`);
  }
}

import type { DataApiQuota, DataApiTarget, DataApiTargets } from '@kiln/domain';
import { SignJWT } from 'jose';
import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { installDataApiFunctions } from '../data-api-functions.js';
import { DataApiServer } from '../data-api-server.js';
import { PgDataApi } from '../pg-data-api.js';

/**
 * A project database made for the data API's tests by the conventions of docs/databases.md (the
 * provisioner is another piece of work; this does what it will do): database `kiln_app_<ref>`,
 * cluster-wide `anon`/`authenticated`, the authenticator and owner roles, the `auth` schema, and
 * tables with row-level security: `profiles` (readable by signed-in users), `todos` (owner
 * policies, a foreign key to profiles), `secrets` (RLS on, no policy).
 */
export const ADMIN_URL = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

const ref = () => Array.from(randomBytes(20), (b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('');

export interface TestProject {
  readonly target: DataApiTarget;
  /** A superuser connection to the project database, to check what really changed. */
  readonly admin: pg.Client;
  drop(): Promise<void>;
}

export async function createTestProject(): Promise<TestProject> {
  const r = ref();
  const db = `kiln_app_${r}`;
  const authenticator = `${db}_authenticator`;
  const owner = `${db}_owner`;
  const password = randomBytes(18).toString('hex');
  const server = new pg.Client({ connectionString: ADMIN_URL });
  await server.connect();
  try {
    for (const role of ['anon', 'authenticated']) {
      await server.query(`do $$ begin create role ${role} nologin noinherit; exception when duplicate_object or unique_violation then null; end $$`);
    }
    await server.query(`create database ${db}`);
    await server.query(`revoke connect on database ${db} from public`);
    await server.query(`create role ${authenticator} login noinherit nosuperuser nocreatedb nocreaterole noreplication nobypassrls connection limit 5 password '${password}'`);
    await server.query(`alter role ${authenticator} set statement_timeout = '10s'`);
    await server.query(`create role ${owner} nologin`);
    await server.query(`grant anon, authenticated to ${authenticator}`);
    await server.query(`grant connect on database ${db} to ${authenticator}`);
  } finally {
    await server.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${db}`;
  const admin = new pg.Client({ connectionString: url.toString() });
  const drop = async () => {
    await admin.end().catch(() => {});
    const s = new pg.Client({ connectionString: ADMIN_URL });
    await s.connect();
    await s.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1`, [db]);
    await s.query(`drop database if exists ${db}`);
    await s.query(`drop role if exists ${authenticator}`);
    await s.query(`drop role if exists ${owner}`);
    await s.end();
  };
  try {
    await admin.connect();
    await schema(admin, owner);
  } catch (error) {
    await drop();
    throw error;
  }
  const target: DataApiTarget = {
    ref: r,
    ownerId: 'owner-of-' + r,
    connection: { host: url.hostname, port: Number(url.port || 5432), database: db, user: authenticator, password },
    jwtSecret: randomBytes(32).toString('base64url'),
    maxConnections: 4,
  };
  return { target, admin, drop };
}

async function schema(admin: pg.Client, owner: string): Promise<void> {
  await admin.query(`
    create schema auth;
    create function auth.jwt() returns jsonb language sql stable as $$ select nullif(current_setting('request.jwt.claims', true), '')::jsonb $$;
    create function auth.uid() returns uuid language sql stable as $$ select nullif(auth.jwt()->>'sub', '')::uuid $$;
    create function auth.role() returns text language sql stable as $$ select auth.jwt()->>'role' $$;
    grant usage on schema auth to anon, authenticated, ${owner};
    alter schema public owner to ${owner};
    revoke create on schema public from public;
    grant usage on schema public to anon, authenticated;
    create schema kiln;
    create function kiln.x() returns text language sql as $$ select 'kiln' $$;
    set role ${owner};
    create table profiles (id uuid primary key, name text not null);
    create table todos (id bigserial primary key, title text not null, done boolean not null default false,
                        user_id uuid not null default auth.uid() references profiles(id), rank int);
    create table secrets (id int primary key, value text);
    alter table profiles enable row level security;
    alter table todos enable row level security;
    alter table secrets enable row level security;
    create policy profiles_read on profiles for select to authenticated using (true);
    create policy profiles_own on profiles for insert to authenticated with check (id = auth.uid());
    create policy todos_select on todos for select to authenticated using (user_id = auth.uid());
    create policy todos_insert on todos for insert to authenticated with check (user_id = auth.uid());
    create policy todos_update on todos for update to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
    create policy todos_delete on todos for delete to authenticated using (user_id = auth.uid());
    grant select, insert, update, delete on profiles, todos, secrets to anon, authenticated;
    grant usage on all sequences in schema public to anon, authenticated;
    create function add_numbers(a int, b int default 0) returns int language sql as $$ select a + b $$;
    create function slow() returns void language sql as $$ select pg_sleep(4) $$;
    create function open_todos() returns setof todos language sql stable as $$ select * from todos where not done order by id $$;
    reset role;
  `);
  await installDataApiFunctions(admin, owner);
}

export function sign(secret: string, claims: Record<string, unknown>, expiresIn: string | number | null = '1h'): Promise<string> {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt();
  if (expiresIn !== null) jwt.setExpirationTime(expiresIn);
  return jwt.sign(new TextEncoder().encode(secret));
}

/**
 * The data API served over real HTTP at `http://{ref}.data.localhost:{port}` for the projects
 * given (or a lookup the test changes), with a size quota when one is given (`targetCacheMs` as
 * DataApiServer's). 64 KiB of request line and headers, as Kiln's server
 * (apps/api/src/serving/max-header-size.ts); past that Node answers 431 itself.
 */
export async function serveDataApi(
  projects: readonly DataApiTarget[] | DataApiTargets,
  options: { readonly quota?: DataApiQuota; readonly targetCacheMs?: number } = {},
): Promise<{ port: number; api: PgDataApi; server: DataApiServer; urlOf(ref: string): string; close(): Promise<void> }> {
  const targets: DataApiTargets = 'findByRef' in projects ? projects : { findByRef: async (r) => projects.find((p) => p.ref === r) ?? null };
  const api = new PgDataApi({ statementTimeoutMs: 2000 });
  const dataServer = new DataApiServer('http://{ref}.data.localhost:{port}', targets, api, [], undefined, options.quota, options.targetCacheMs);
  const httpServer = http.createServer({ maxHeaderSize: 64 * 1024 }, (req: IncomingMessage, res: ServerResponse) => {
    if (dataServer.matches(req)) dataServer.handle(req, res);
    else res.writeHead(421).end();
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const port = (httpServer.address() as AddressInfo).port;
  return {
    port,
    api,
    server: dataServer,
    urlOf: (r) => `http://${r}.data.localhost:${port}`,
    async close() {
      await new Promise((resolve) => httpServer.close(resolve));
      await api.close();
    },
  };
}

/**
 * fetch for `*.data.localhost` without DNS: connects to 127.0.0.1 and sends the Host the URL
 * names (Node's fetch cannot set Host). What supabase-js uses of a Response is all there.
 */
export const localFetch: typeof fetch = async (input, init) => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  const headers = new Headers(init?.headers);
  const body = init?.body === undefined || init.body === null ? undefined : String(init.body);
  return new Promise<Response>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: url.port, path: `${url.pathname}${url.search}`, method: init?.method ?? 'GET', headers: { ...Object.fromEntries(headers), host: url.host } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const status = res.statusCode ?? 500;
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
          const noBody = status === 204 || status === 304 || init?.method === 'HEAD';
          resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage ?? '', headers: h }));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
};

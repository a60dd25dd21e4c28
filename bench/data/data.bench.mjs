// Project databases (issue 16): how fast the data API answers a supabase-js read, compared with
// the same query through a raw `pg` pool in the same run.
//
//  1. Setup: a fresh built API (`node apps/api/dist/main.js`, embedded PostgreSQL in a fresh
//     DATA_DIR), a Pro account, a project, `POST /api/db/provision`; then, through Kiln's admin
//     connection to `kiln_app_<ref>` (the embedded server's superuser: its port from
//     postmaster.pid, its password from secrets/postgres-password), as the project's owner role:
//     a table `items` with ROWS rows (the RLS event trigger enables row-level security) and a
//     policy letting anon read it.
//  2. Load (a separate process, 64 concurrent callers, BENCH_SECONDS each):
//     - data API: supabase-js `from('items').select('*').limit(20)` with the anon key, to
//       `{ref}.data.localhost` on 127.0.0.1 (Host header, keep-alive agent);
//     - raw: `SELECT * FROM items LIMIT 20` on a `pg` pool of admin connections, as many as the
//       data API's pool held after its run (counted in pg_stat_activity: the Pro plan's 10 less
//       one), so both sides have the same connections; the admin role skips RLS and the role
//       switch, so this is the floor the data API's per-request transaction is measured against.
//     Target: data API ≥ 0.3× the raw requests/s, p99 ≤ 25 ms.
//
//   npm run bench data           BENCH_SECONDS=10 BENCH_CLIENTS=64 (defaults; fewer clients to see one request's cost)
//                                BENCH_RAW_POOL=n: the raw pool's size instead of the data API's
//                                BENCH_API_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/p': profile the API
// Run it on an otherwise idle machine: it prints the load average before and after.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { BASE, PORT, json, proAccount, startApi, stopApi } from '../lib/kiln-api.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../libs/adapters/package.json'));
const pg = require('pg');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 64);
const ROWS = 25;

const pct = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
const ms = (v) => `${v.toFixed(v < 10 ? 2 : 1)} ms`;
const load = () => loadavg().map((v) => v.toFixed(2)).join(' ');

async function api(method, route, auth, body) {
  return fetch(`${BASE}${route}`, { method, headers: auth, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

/** The embedded server's superuser URL for a database (what startApi's API itself uses). */
function adminUrl(dataDir, database) {
  const port = Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3]);
  const password = readFileSync(path.join(dataDir, 'secrets', 'postgres-password'), 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/** The table and its anon read policy, made as the project's owner (as a migration would). */
async function seed(url, ref) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`SET ROLE kiln_app_${ref}_owner`);
    await client.query(`CREATE TABLE items (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, title text NOT NULL, done boolean NOT NULL DEFAULT false, created_at timestamptz NOT NULL DEFAULT now())`);
    await client.query(`INSERT INTO items (title, done) SELECT 'Item ' || i, i % 3 = 0 FROM generate_series(1, ${ROWS}) AS i`);
    await client.query(`CREATE POLICY "anon reads items" ON items FOR SELECT TO anon USING (true)`);
    const rls = await client.query(`SELECT relrowsecurity FROM pg_class WHERE oid = 'public.items'::regclass`);
    if (!rls.rows[0].relrowsecurity) throw new Error('row-level security is not enabled on items (the RLS event trigger did not run)');
  } finally {
    await client.end();
  }
}

/** The authenticator's CONNECTION LIMIT, and how many connections the data API's pool holds now. */
async function authenticatorConnections(url, ref) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const user = `kiln_app_${ref}_authenticator`;
    const limit = await client.query('SELECT rolconnlimit FROM pg_roles WHERE rolname = $1', [user]);
    const held = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1', [user]);
    return { limit: limit.rows[0].rolconnlimit, held: held.rows[0].n };
  } finally {
    await client.end();
  }
}

/** CPU time (user + system, ms) the API process has used so far (Linux: /proc/<pid>/stat). */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return NaN;
  }
}

function runLoad(options) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(here, 'load-client.mjs'), JSON.stringify({ seconds: SECONDS, clients: CLIENTS, rows: 20, ...options })], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`the ${options.mode} load client exited with ${code}`));
      const { latencies, seconds, cpuMs } = JSON.parse(out);
      const sorted = latencies.sort((a, b) => a - b);
      resolve({ rps: sorted.length / seconds, p50: pct(sorted, 0.5), p99: pct(sorted, 0.99), n: sorted.length, clientCpu: cpuMs / sorted.length });
    });
  });
}

console.log(`load average before: ${load()} (${cpus().length} cores)`);
const server = await startApi();
let failed = false;
try {
  const auth = await proAccount();
  const project = await json(await api('POST', '/api/projects', auth, { name: 'Data bench' }));
  const db = await json(await api('POST', '/api/db/provision', auth, { project_id: project.id }));
  const url = adminUrl(server.dataDir, `kiln_app_${db.ref}`);
  await seed(url, db.ref);
  console.log(`project database kiln_app_${db.ref}: ${ROWS} rows in items, RLS on, anon may read; data origin ${db.url}`);
  console.log(`${CLIENTS} concurrent callers, ${SECONDS} s each, select * from items limit 20`);

  const cpu0 = cpuMs(server.child.pid);
  const data = await runLoad({ mode: 'data', url: db.url, anonKey: db.anon_key, port: PORT });
  const apiCpu = (cpuMs(server.child.pid) - cpu0) / (data.n + CLIENTS); // the warm-up requests too
  const { limit, held } = await authenticatorConnections(url, db.ref);
  const pool = Number(process.env.BENCH_RAW_POOL ?? Math.max(1, held));
  const raw = await runLoad({ mode: 'raw', adminUrl: url, pool });
  const line = (name, r) =>
    `  ${name.padEnd(32)} ${r.rps.toFixed(0).padStart(6)} req/s   p50 ${ms(r.p50).padStart(9)}   p99 ${ms(r.p99).padStart(9)}   (${r.n} requests; load client CPU ${ms(r.clientCpu)}/request)`;
  console.log(`  data API pool: ${held} connections of the authenticator (its CONNECTION LIMIT ${limit}); raw pool: ${pool} admin connections`);
  console.log(line(`data API (supabase-js, ${held} conns)`, data));
  console.log(line(`raw pg pool (${pool} admin conns)`, raw));
  if (Number.isFinite(apiCpu)) console.log(`  the API process's CPU per data-API request: ${ms(apiCpu)}`);
  const ratio = data.rps / raw.rps;
  const ok = ratio >= 0.3 && data.p99 <= 25;
  console.log(`  data API / raw: ${ratio.toFixed(2)}× (target ≥ 0.3×), data API p99 ${ms(data.p99)} (target ≤ 25 ms): ${ok ? 'met' : 'NOT met'}`);
  failed = !ok;
} finally {
  await stopApi(server);
  console.log(`load average after: ${load()}`);
}
process.exit(failed ? 1 : 0);

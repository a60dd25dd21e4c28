// Debit throughput and latency through the HTTP API (POST /api/credits/consume) at 64
// concurrent clients, next to the raw conditional-UPDATE rate on the same PostgreSQL in the
// same run. Each client is its own user (its own balance row), as in the raw loop.
//
//   npm run bench credits            DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test)
//   BENCH_SECONDS=10 BENCH_CLIENTS=64 (defaults)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const pg = require('pg');
const { createApp } = require('../../apps/api/dist/bootstrap.js');
const { loadConfig } = require('../../apps/api/dist/config.js');
const { AuthModule } = require('../../apps/api/dist/auth/auth.module.js');
const { PostgresPersistenceModule } = require('../../apps/api/dist/persistence/postgres-persistence.module.js');
const { CREDIT_LEDGER } = require('../../apps/api/dist/tokens.js');
const { postgresAuthStores } = require('../../apps/api/dist/persistence/postgres-auth-stores.js');
const { InMemorySandboxHost, InMemoryHostingProvider, InMemoryDnsResolver, InMemoryCertificateAuthority, InMemorySiteScreenshotter } = require('../../libs/domain/dist/testing/index.js');

const URL_ = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 64);
const BALANCE = 10_000_000;

function stats(latencies, seconds) {
  const sorted = Float64Array.from(latencies).sort();
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(2);
  return { ops: sorted.length, perSecond: Math.round(sorted.length / seconds), p50: at(0.5), p99: at(0.99) };
}

/** Runs `op(client)` in CLIENTS loops for SECONDS; returns per-op latencies in ms. */
async function closedLoop(op) {
  const latencies = [];
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = 0; performance.now() < deadline; i += 1) {
        const t0 = performance.now();
        await op(client, i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return stats(latencies, (performance.now() - started) / 1000);
}

async function rawConditionalUpdate() {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: URL_, max: CLIENTS });
  await pool.query(`CREATE SCHEMA ${schema}`);
  await pool.query(`CREATE TABLE ${schema}.balances (id int PRIMARY KEY, balance bigint NOT NULL CHECK (balance >= 0))`);
  await pool.query(`INSERT INTO ${schema}.balances SELECT g, ${BALANCE} FROM generate_series(0, ${CLIENTS - 1}) g`);
  try {
    return await closedLoop(async (client) => {
      const r = await pool.query(`UPDATE ${schema}.balances SET balance = balance - 1 WHERE id = $1 AND balance >= 1`, [client]);
      if (r.rowCount !== 1) throw new Error('raw debit refused');
    });
  } finally {
    await pool.query(`DROP SCHEMA ${schema} CASCADE`);
    await pool.end();
  }
}

async function throughApi() {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const config = loadConfig({ NODE_ENV: 'test' });
  const loose = { burst: 10_000, refillPerSecond: 10_000 };
  const app = await createApp(config, {
    persistence: PostgresPersistenceModule.forRoot({ url: URL_, schema, poolSize: CLIENTS }),
    // The bench signs 64 users up from one address: lift the per-IP limits for it only.
    auth: AuthModule.register({ stores: postgresAuthStores, settings: { rateRules: { signup: loose, otp: loose, verify: loose, recover: loose, resend: loose, token_password: loose, token_refresh: loose } } }),
    // The bench uses no sandbox: the in-memory one stands in for it.
    sandboxHost: new InMemorySandboxHost(),
    // Nor publishing.
    hosting: { provider: new InMemoryHostingProvider(), dns: new InMemoryDnsResolver(), certificates: new InMemoryCertificateAuthority(), screenshotter: new InMemorySiteScreenshotter() },
    logLevel: 'silent',
  });
  await app.listen(0, '127.0.0.1');
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const json = (path, body, headers = {}) =>
    fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  try {
    // Real users: sign up, read the code from the dev outbox, verify, create the profile.
    const users = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, i) => {
        const email = `bench-${i}-${schema}@example.com`;
        await json('/auth/v1/signup', { email, password: 'bench-password-123' });
        const outbox = await (await fetch(`${base}/api/dev/outbox?email=${encodeURIComponent(email)}`)).json();
        const code = /\d{6}/.exec(outbox[0].text)[0];
        const session = await (await json('/auth/v1/verify', { type: 'signup', email, token: code })).json();
        const auth = { authorization: `Bearer ${session.access_token}` };
        await json('/api/profile/ensure', {}, auth);
        return { id: session.user.id, auth };
      }),
    );
    const ledger = app.get(CREDIT_LEDGER, { strict: false });
    for (const u of users) {
      await ledger.grant(u.id, { key: 'bench', at: new Date(), bucket: 'addon', amount: BALANCE, reason: 'adjustment' });
    }
    // The load comes from a separate process: client and server in one event loop would
    // measure the client as much as the server.
    const out = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [new URL('./load-client.mjs', import.meta.url).pathname, JSON.stringify({ base, users, seconds: SECONDS })], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let text = '';
      child.stdout.on('data', (chunk) => (text += chunk));
      child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(text)) : reject(new Error(`load client exited ${code}`))));
    });
    return stats(out.latencies, out.seconds);
  } finally {
    const dataSource = app.get(require('../../apps/api/dist/persistence/postgres-persistence.module.js').POSTGRES_DATA_SOURCE, { strict: false });
    await dataSource.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await app.close();
  }
}

const raw = await rawConditionalUpdate();
const api = await throughApi();
const line = (name, s) =>
  `${name.padEnd(34)} ${String(s.ops).padStart(7)} ops  ${String(s.perSecond).padStart(6)} /s  p50 ${s.p50.padStart(7)} ms  p99 ${s.p99.padStart(7)} ms`;
console.log(`${CLIENTS} concurrent clients, ${SECONDS} s each, ${URL_.replace(/\/\/[^@]*@/, '//')}`);
console.log(line('raw conditional UPDATE (pg)', raw));
console.log(line('POST /api/credits/consume (HTTP)', api));

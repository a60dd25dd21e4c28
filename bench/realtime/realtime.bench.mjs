// Realtime (issue 18): an insert in a project database → delivered to 100 subscribers of
// postgres_changes through `/realtime/v1/websocket`, with p50 and p99 latency and the API's CPU
// per message.
//
//  1. Setup: a fresh built API (`node apps/api/dist/main.js`, embedded PostgreSQL in a fresh
//     DATA_DIR), a Pro account, a project, `POST /api/db/provision`; then, as the project's owner
//     role, a table `messages` with a policy letting anon read and insert it.
//  2. BENCH_SUBSCRIBERS sockets (default 100) with the anon key, each joined to a channel with
//     `postgres_changes` INSERT on `messages` (Phoenix vsn 2.0.0 frames, as realtime-js sends).
//  3. BENCH_MESSAGES inserts (default 200), one every BENCH_INTERVAL_MS (default 20), through
//     Kiln's admin connection; each row carries its send time, and each subscriber notes when the
//     change arrives: latency = arrival − send (one clock: the same process). The API re-reads
//     every change as the subscriber's role; the 100 anon subscribers share one read per change.
//  4. The API's CPU (user + system, /proc/<pid>/stat) around the run, per message (an insert
//     delivered to every subscriber) and per delivery; the bench process's own by process.cpuUsage.
//
//   npm run bench realtime      BENCH_SUBSCRIBERS=100 BENCH_MESSAGES=200 BENCH_INTERVAL_MS=20
// Run it on an otherwise idle machine: it prints the load average before and after.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASE, PORT, json, proAccount, sleep, startApi, stopApi } from '../lib/kiln-api.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../libs/adapters/package.json'));
const pg = require('pg');
const { WebSocket } = require('ws');
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 100);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 200);
const INTERVAL = Number(process.env.BENCH_INTERVAL_MS ?? 20);

const pct = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
const ms = (v) => `${v.toFixed(v < 10 ? 2 : 1)} ms`;
const load = () => loadavg().map((v) => v.toFixed(2)).join(' ');

function adminUrl(dataDir, database) {
  const port = Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3]);
  const password = readFileSync(path.join(dataDir, 'secrets', 'postgres-password'), 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/** One subscriber: a socket on the data origin joined to INSERTs of messages; resolves when joined. */
function subscribe(ref, anonKey, onChange) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${PORT}/realtime/v1/websocket?apikey=${encodeURIComponent(anonKey)}&vsn=2.0.0`, { headers: { host: `${ref}.data.localhost:${PORT}` } });
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify(['1', '1', 'realtime:bench', 'phx_join', { config: { broadcast: { self: false }, presence: { key: '' }, postgres_changes: [{ event: 'INSERT', schema: 'public', table: 'messages' }] } }])));
    ws.on('message', (data, binary) => {
      if (binary) return;
      const [, ref_, , event, payload] = JSON.parse(data.toString());
      if (event === 'phx_reply' && ref_ === '1') return payload.status === 'ok' ? resolve(ws) : reject(new Error(JSON.stringify(payload)));
      if (event === 'postgres_changes') onChange(payload.data.record, Date.now());
    });
    // Heartbeats, as realtime-js sends them every 25 s.
    const beat = setInterval(() => ws.readyState === ws.OPEN && ws.send(JSON.stringify([null, 'hb', 'phoenix', 'heartbeat', {}])), 25_000);
    ws.on('close', () => clearInterval(beat));
  });
}

console.log(`load average before: ${load()} (${cpus().length} cores)`);
const server = await startApi();
let failed = false;
try {
  const auth = await proAccount();
  const project = await json(await fetch(`${BASE}/api/projects`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Realtime bench' }) }));
  const db = await json(await fetch(`${BASE}/api/db/provision`, { method: 'POST', headers: auth, body: JSON.stringify({ project_id: project.id }) }));
  const url = adminUrl(server.dataDir, `kiln_app_${db.ref}`);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`SET ROLE kiln_app_${db.ref}_owner`);
  await admin.query(`CREATE TABLE messages (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, body text NOT NULL, sent_at double precision NOT NULL)`);
  await admin.query(`CREATE POLICY "anon reads messages" ON messages FOR SELECT TO anon USING (true)`);
  await admin.query('RESET ROLE');

  const latencies = [];
  const perMessage = new Map();
  let done = () => {};
  const allDelivered = new Promise((resolve) => (done = resolve));
  const onChange = (record, at) => {
    latencies.push(at - record.sent_at);
    const n = (perMessage.get(record.id) ?? 0) + 1;
    perMessage.set(record.id, n);
    if (latencies.length === SUBSCRIBERS * MESSAGES) done();
  };
  const sockets = [];
  for (let i = 0; i < SUBSCRIBERS; i += 10) sockets.push(...(await Promise.all(Array.from({ length: Math.min(10, SUBSCRIBERS - i) }, () => subscribe(db.ref, db.anon_key, onChange)))));
  console.log(`project database kiln_app_${db.ref}: ${SUBSCRIBERS} subscribers joined; ${MESSAGES} inserts, one every ${INTERVAL} ms`);

  const api0 = cpuMs(server.child.pid);
  const self0 = process.cpuUsage();
  const started = Date.now();
  for (let i = 0; i < MESSAGES; i += 1) {
    await admin.query('INSERT INTO messages (body, sent_at) VALUES ($1, $2)', [`message ${i}`, Date.now()]);
    await sleep(INTERVAL);
  }
  const timeout = sleep(30_000).then(() => 'timeout');
  const finished = await Promise.race([allDelivered.then(() => 'done'), timeout]);
  const apiCpu = cpuMs(server.child.pid) - api0;
  const self = process.cpuUsage(self0);
  const sorted = latencies.sort((a, b) => a - b);
  const expected = SUBSCRIBERS * MESSAGES;
  console.log(`  delivered ${sorted.length} of ${expected} (${MESSAGES} inserts × ${SUBSCRIBERS} subscribers) in ${((Date.now() - started) / 1000).toFixed(1)} s${finished === 'timeout' ? ' — TIMED OUT waiting for the rest' : ''}`);
  if (sorted.length > 0) console.log(`  insert → delivered: p50 ${ms(pct(sorted, 0.5))}   p99 ${ms(pct(sorted, 0.99))}   max ${ms(sorted[sorted.length - 1])}`);
  if (Number.isFinite(apiCpu)) console.log(`  the API process's CPU: ${ms(apiCpu / MESSAGES)} per message (to ${SUBSCRIBERS} subscribers), ${ms(apiCpu / Math.max(1, sorted.length))} per delivery`);
  console.log(`  the bench process's own CPU (process.cpuUsage): ${ms((self.user + self.system) / 1000 / MESSAGES)} per message`);
  failed = sorted.length !== expected;
  for (const ws of sockets) ws.close();
  await admin.end();
} finally {
  await stopApi(server);
  console.log(`load average after: ${load()}`);
}
process.exit(failed ? 1 : 0);

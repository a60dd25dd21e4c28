// Publishing (issue 15): how long a publish and a rollback take, and how fast a published page is
// served compared with Caddy serving the same folder in the same run.
//
//  1. End to end (docs/hosting.md): a fresh built API (`node apps/api/dist/main.js`, embedded
//     PostgreSQL, the real sandbox host), a Pro account, the prompt-built app ("A todo list app
//     called Chores", offline assistant), then timed `POST /api/fly/create-project {project_id,
//     publish: true}` (build in the sandbox, copy, switch) and `POST /api/fly/rollback`.
//  2. Serving: autocannon (a separate process, 64 connections, BENCH_SECONDS each) against Kiln's
//     embedded server (the API's port) and against Caddy
//     (`root * <hosting>/hosts/{host}`, try_files, encode gzip, file_server), for the page and its
//     main script, with `Accept-Encoding: gzip, br`. Kiln ≥ 0.5× Caddy's requests/s, p99 ≤ 20 ms.
//
//   npm run bench publish        BENCH_RUNS=10 BENCH_SECONDS=10 (defaults)
// Run it on an otherwise idle machine: it prints the load average before it starts.
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { BASE, PORT, json, proAccount, readTurnEvents, sleep, startApi, stopApi } from '../lib/kiln-api.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 64;

const pct = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
};
/** A GET with this Host (fetch may not set Host). */
const getWithHost = (port, host, pathname) =>
  new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: pathname, headers: { host } }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode, body }));
      })
      .on('error', reject);
  });
const ms = (v) => `${v.toFixed(v < 10 ? 2 : 0)} ms`;

async function api(method, route, auth, body) {
  return fetch(`${BASE}${route}`, { method, headers: auth, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}


/** Publish and rollback through the API. */
async function endToEnd() {
  const api0 = await startApi();
  try {
    const auth = await proAccount();
    const project = await json(await api('POST', '/api/projects', auth, { name: 'Publish bench' }));
    await json(await api('POST', `/api/sandbox/${project.id}/ensure`, auth));
    const turn = await readTurnEvents(
      await api('POST', `/api/projects/${project.id}/turns`, auth, { message: 'A todo list app called Chores', idempotency_key: `bench-${Date.now()}`, auto_run: true }),
      ['done', 'error'],
    );
    if (turn.at(-1)?.event !== 'done') throw new Error(`the turn did not finish: ${JSON.stringify(turn.at(-1))}`);
    const publishes = [];
    let status;
    // The turn's last writes (its undo journal) finish just after its `done` event: until then the
    // project is busy (409 PROJECTS.BUSY), as it is for a person who clicks Publish that fast.
    for (let tries = 0; tries < 50; tries++) {
      const first = await api('POST', '/api/fly/create-project', auth, { project_id: project.id, publish: true });
      const body = await first.text();
      if (!body.includes('PROJECTS.BUSY')) break;
      await sleep(100);
    }
    for (let i = 0; i <= RUNS; i++) {
      const t0 = performance.now();
      status = await json(await api('POST', '/api/fly/create-project', auth, { project_id: project.id, publish: true }));
      if (i > 0) publishes.push(performance.now() - t0); // the first one warms up
    }
    const host = new URL(status.published_url).hostname;
    const page = await getWithHost(PORT, host, '/');
    if (page.status !== 200 || !page.body.includes('<div id="root">')) throw new Error('the published URL does not answer the app');
    const [current, previous] = status.releases;
    const rollbacks = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await json(await api('POST', '/api/fly/rollback', auth, { project_id: project.id, release_id: (i % 2 === 0 ? previous : current).id }));
      rollbacks.push(performance.now() - t0);
    }
    await json(await api('POST', '/api/fly/rollback', auth, { project_id: project.id, release_id: current.id }));
    return {
      publishes,
      rollbacks,
      what: 'POST /api/fly/create-project publish:true (prompt-built app)',
      target: { port: PORT, host },
      hostingRoot: path.join(api0.dataDir, 'hosting'),
      stop: () => stopApi(api0),
    };
  } catch (e) {
    await stopApi(api0);
    throw e;
  }
}


/** Caddy serving `<hostingRoot>/hosts/{host}` on its own port; answers a stop function. */
async function startCaddy(hostingRoot, port, host) {
  const dir = mkdtempSync(path.join(tmpdir(), 'kiln-bench-caddy-'));
  const caddyfile = path.join(dir, 'Caddyfile');
  writeFileSync(
    caddyfile,
    `{\n\tadmin off\n\tauto_https off\n}\n\nhttp://:${port} {\n\troot * ${hostingRoot}/hosts/{host}\n\tencode gzip\n` +
      `\theader /assets/* Cache-Control "public, max-age=31536000, immutable"\n\ttry_files {path} /index.html\n\tfile_server\n}\n`,
  );
  const child = spawn('caddy', ['run', '--config', caddyfile, '--adapter', 'caddyfile'], { env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir }, stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const ok = await getWithHost(port, host, '/').then((r) => r.status === 200, () => false);
    if (ok) return async () => (child.kill('SIGTERM'), await sleep(200), rmSync(dir, { recursive: true, force: true }));
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('Caddy did not start');
}

/** autocannon as its own process: requests/s (mean), p99 latency, non-2xx and errors. */
function cannon(port, host, pathname, seconds) {
  const r = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/autocannon/autocannon.js'), '-j', '-c', String(CONNECTIONS), '-d', String(seconds), '-H', `host=${host}`, '-H', 'accept-encoding=gzip, br', `http://127.0.0.1:${port}${pathname}`],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (r.status !== 0) throw new Error(`autocannon failed: ${r.stderr}`);
  const out = JSON.parse(r.stdout);
  return { rps: out.requests.average, p99: out.latency.p99, p50: out.latency.p50, non2xx: out.non2xx, errors: out.errors + out.timeouts };
}

if (!existsSync('/usr/bin/caddy') && spawnSync('caddy', ['version']).status !== 0) {
  console.error('Caddy is not installed (Debian package caddy): apt-get install -y caddy');
  process.exit(1);
}
console.log(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${RUNS} runs, ${SECONDS} s per load test, ${CONNECTIONS} connections`);
const setup = await endToEnd();
let failed = false;
try {
  console.log(`publish (${setup.what}): p50 ${ms(pct(setup.publishes, 0.5))}, p90 ${ms(pct(setup.publishes, 0.9))} (target p50 ≤ 3 s)`);
  console.log(`rollback: p50 ${ms(pct(setup.rollbacks, 0.5))}, max ${ms(Math.max(...setup.rollbacks))} (target ≤ 200 ms)`);
  if (pct(setup.publishes, 0.5) > 3000 || Math.max(...setup.rollbacks) > 200) failed = true;

  const release = readdirSync(path.join(setup.hostingRoot, 'hosts', setup.target.host, 'assets')).find((f) => f.endsWith('.js'));
  const caddyPort = setup.target.port + 2;
  const stopCaddy = await startCaddy(setup.hostingRoot, caddyPort, setup.target.host);
  try {
    for (const pathname of ['/', `/assets/${release}`]) {
      // Warm both (Kiln compresses a file once, on its first request).
      cannon(setup.target.port, setup.target.host, pathname, 2);
      cannon(caddyPort, setup.target.host, pathname, 2);
      const kiln = cannon(setup.target.port, setup.target.host, pathname, SECONDS);
      const caddy = cannon(caddyPort, setup.target.host, pathname, SECONDS);
      const ratio = kiln.rps / caddy.rps;
      console.log(
        `GET ${pathname}: Kiln ${kiln.rps.toFixed(0)} req/s (p50 ${kiln.p50} ms, p99 ${kiln.p99} ms, non-2xx ${kiln.non2xx}, errors ${kiln.errors}); ` +
          `Caddy ${caddy.rps.toFixed(0)} req/s (p50 ${caddy.p50} ms, p99 ${caddy.p99} ms, non-2xx ${caddy.non2xx}); ratio ${ratio.toFixed(2)}${pathname === '/' ? ' (target ≥ 0.5, Kiln p99 ≤ 20 ms)' : ''}`,
      );
      // The targets are the page's (issue 15); the script (~250 kB, ~70 kB in brotli) is reported too.
      if (kiln.non2xx > 0 || kiln.errors > 0 || (pathname === '/' && (ratio < 0.5 || kiln.p99 > 20))) failed = true;
    }
  } finally {
    await stopCaddy();
  }
} finally {
  await setup.stop();
}
console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
process.exit(failed ? 1 : 0);

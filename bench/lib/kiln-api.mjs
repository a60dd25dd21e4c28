// Shared by the benches that drive the built API end to end (`node apps/api/dist/main.js` on an
// embedded PostgreSQL in a fresh DATA_DIR, the real sandbox host and preview proxy).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const PORT = 3400 + Math.floor(Math.random() * 500);
export const BASE = `http://127.0.0.1:${PORT}`;
const V = { 'content-type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01' };
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const debug = (...a) => process.env.BENCH_DEBUG && console.error(...a);

export async function startApi() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kiln-bench-preview-'));
  chmodSync(dataDir, 0o755); // the embedded PostgreSQL runs as postgres when we are root
  const { DATABASE_URL: _ignored, ...env } = process.env;
  // BENCH_API_NODE_ARGS: extra node flags for the API process (e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`).
  const nodeArgs = (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, 'apps/api/dist/main.js'], {
    cwd: root,
    env: { ...env, PORT: String(PORT), DATA_DIR: dataDir, NODE_ENV: 'development', WEB_ORIGIN: `http://localhost:${PORT}`, LOG_LEVEL: 'warn' },
    stdio: ['ignore', process.env.BENCH_DEBUG ? 'inherit' : 'ignore', 'inherit'],
  });
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${BASE}/health`)).ok) return { child, dataDir };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error('API did not start');
}

export async function json(res) {
  const body = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${body}`);
  return body === '' ? null : JSON.parse(body);
}

export async function signUp() {
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  await json(await fetch(`${BASE}/auth/v1/signup`, { method: 'POST', headers: V, body: JSON.stringify({ email, password: 'correct horse battery' }) }));
  const mails = await json(await fetch(`${BASE}/api/dev/outbox?email=${encodeURIComponent(email)}`));
  const token = /(\d{6})/.exec(mails[0].subject)[1];
  const session = await json(await fetch(`${BASE}/auth/v1/verify`, { method: 'POST', headers: V, body: JSON.stringify({ type: 'signup', email, token }) }));
  const auth = { authorization: `Bearer ${session.access_token}`, 'content-type': 'application/json' };
  await json(await fetch(`${BASE}/api/profile`, { headers: auth }));
  return auth;
}

/** A new account on Pro (25 credits on top of the free 5; publishing allowed), through the local test checkout. */
export async function proAccount() {
  const auth = await signUp();
  const { url } = await json(
    await fetch(`${BASE}/api/payment/create-checkout-session`, { method: 'POST', headers: auth, body: JSON.stringify({ plan_id: 'pro_monthly' }) }),
  );
  const u = new URL(url);
  const paid = await fetch(`${BASE}${u.pathname}/complete`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: u.searchParams.get('token') ?? '' }),
    redirect: 'manual',
  });
  if (paid.status >= 400) throw new Error(`local checkout failed: ${paid.status}`);
  return auth;
}

/** A request to the preview origin (its Host) on the loopback address. */
export function previewRequest(host, pathname, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: PORT, path: pathname, headers: { host, ...headers } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}


/** Stops the API (and its embedded PostgreSQL and dev servers) and removes its data. */
export async function stopApi({ child, dataDir }) {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}

export function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return `median ${at(0.5).toFixed(0)} ms, p90 ${at(0.9).toFixed(0)} ms, min ${sorted[0].toFixed(0)} ms, max ${sorted.at(-1).toFixed(0)} ms`;
}

/**
 * Reads a turn's SSE reply until one of `last` (or the end): every event with the time it
 * arrived (`performance.now()`) and its parsed data.
 */
export async function readTurnEvents(response, last) {
  const decoder = new TextDecoder();
  let buffer = '';
  const events = [];
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event === undefined) continue;
      events.push({ event, at: performance.now(), data: data === undefined ? null : JSON.parse(data) });
      if (last.includes(event)) return events;
    }
  }
  return events;
}

/** Busy share of all cores over `ms` (0–1), from the kernel's CPU times. */
async function busyShare(ms) {
  const { cpus } = await import('node:os');
  const total = () => cpus().reduce((t, c) => ({ idle: t.idle + c.times.idle, all: t.all + Object.values(c.times).reduce((a, b) => a + b, 0) }), { idle: 0, all: 0 });
  const a = total();
  await sleep(ms);
  const b = total();
  const all = b.all - a.all;
  return all <= 0 ? 0 : 1 - (b.idle - a.idle) / all;
}

/**
 * Waits until the machine is quiet: the cores less than `maxBusy` busy over a second, twice in a
 * row (Kiln's own background work, such as the dev server it starts ahead of the next project,
 * included), or `limitMs` passed. Answers how long it waited, and whether it got quiet.
 */
export async function waitForQuiet({ maxBusy = 0.1, limitMs = 60_000 } = {}) {
  const started = performance.now();
  let calm = 0;
  while (performance.now() - started < limitMs) {
    calm = (await busyShare(1000)) < maxBusy ? calm + 1 : 0;
    if (calm >= 2) return { waitedMs: performance.now() - started, quiet: true };
  }
  return { waitedMs: performance.now() - started, quiet: false };
}

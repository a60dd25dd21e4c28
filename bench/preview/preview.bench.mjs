// Live preview latency, end to end through the built API (`node apps/api/dist/main.js`, embedded
// PostgreSQL, the real LocalSandboxHost with its Vite dev servers, the preview reverse proxy):
//   1. create project → preview answers 200 with the app (index.html and the transformed
//      src/App.tsx holding the starter text), per fresh project;
//   2. write-file → the change is visible in the preview: the HMR `update` message reaches a
//      websocket connected through the proxy, and the served module holds the new text.
// Median and p90 over BENCH_RUNS (default 10) runs, after one warm-up run (template cache warm).
//
//   npm run bench preview            BENCH_RUNS=10 (default)
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { BASE, PORT, debug, json, previewRequest, signUp, sleep, startApi, stopApi, summary } from '../lib/kiln-api.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const STARTER_TEXT = 'Welcome to your Kiln app';

/** A minimal websocket client (text frames from the server are unmasked): enough for Vite's HMR. */
function openHmrSocket(host, cookie, token) {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: PORT,
      path: `/?token=${encodeURIComponent(token)}`,
      headers: {
        host,
        cookie,
        origin: `http://${host}`,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': randomBytes(16).toString('base64'),
        'sec-websocket-protocol': 'vite-hmr',
      },
    });
    req.on('upgrade', (_res, socket, head) => {
      // Messages are kept until asked for: the first ones may come with the upgrade itself (head).
      const received = [];
      const listeners = new Set();
      let buffer = Buffer.alloc(0);
      const onData = (chunk) => {
        buffer = Buffer.concat([buffer, chunk]);
        for (;;) {
          if (buffer.length < 2) return;
          let length = buffer[1] & 0x7f;
          let offset = 2;
          if (length === 126) {
            if (buffer.length < 4) return;
            length = buffer.readUInt16BE(2);
            offset = 4;
          } else if (length === 127) {
            if (buffer.length < 10) return;
            length = Number(buffer.readBigUInt64BE(2));
            offset = 10;
          }
          if (buffer.length < offset + length) return;
          const opcode = buffer[0] & 0x0f;
          const payload = buffer.subarray(offset, offset + length).toString('utf8');
          buffer = buffer.subarray(offset + length);
          if (opcode === 1) {
            const message = JSON.parse(payload);
            received.push(message);
            for (const l of [...listeners]) l(message);
          }
        }
      };
      socket.on('data', onData);
      if (head.length > 0) onData(head);
      resolve({
        /** The next message matching `predicate` that nobody took yet (earlier ones included). */
        next: (predicate) =>
          new Promise((done) => {
            const waiting = received.findIndex(predicate);
            if (waiting >= 0) return done(received.splice(waiting, 1)[0]);
            const l = (message) => {
              if (predicate(message)) {
                listeners.delete(l);
                received.splice(received.indexOf(message), 1);
                done(message);
              }
            };
            listeners.add(l);
          }),
        close: () => socket.destroy(),
      });
    });
    req.on('response', (res) => reject(new Error(`websocket refused: ${res.statusCode}`)));
    req.on('error', reject);
    req.end();
  });
}

async function oneRun(auth, label) {
  const t0 = performance.now();
  const project = await json(await fetch(`${BASE}/api/projects`, { method: 'POST', headers: auth, body: JSON.stringify({ name: `Bench ${label}` }) }));
  const tCreated = performance.now();
  const info = await json(await fetch(`${BASE}/api/sandbox/${project.id}/ensure`, { method: 'POST', headers: auth }));
  const tEnsured = performance.now();
  const url = new URL(info.url);
  const host = url.host;
  const exchange = await previewRequest(host, url.pathname + url.search);
  const cookie = String(exchange.headers['set-cookie']?.[0] ?? '').split(';')[0];
  if (exchange.status !== 302 || cookie === '') throw new Error(`preview token exchange failed: ${exchange.status}`);
  const deadline = performance.now() + 60_000;
  for (;;) {
    if (performance.now() > deadline) throw new Error(`${label}: the preview did not come up within 60 s`);
    const page = await previewRequest(host, '/', { cookie, accept: 'text/html' });
    debug(page.status, page.body.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").slice(0, 300));
    if (page.status === 200 && page.body.includes('id="root"')) {
      const app = await previewRequest(host, '/src/App.tsx', { cookie });
      if (app.status === 200 && app.body.includes(STARTER_TEXT)) break;
    }
    await sleep(20);
  }
  const createToPreview = performance.now() - t0;
  debug(`${label}: preview up in ${createToPreview.toFixed(0)} ms (create ${(tCreated - t0).toFixed(0)}, ensure ${(tEnsured - tCreated).toFixed(0)}, then ${(performance.now() - tEnsured).toFixed(0)})`);

  // HMR: the module graph knows main.tsx → App.tsx once the browser (here: we) asked for them.
  await previewRequest(host, '/src/main.tsx', { cookie });
  const client = await previewRequest(host, '/@vite/client', { cookie });
  const wsToken = /wsToken\s*=\s*"([^"]+)"/.exec(client.body)?.[1];
  if (!wsToken) throw new Error('no HMR token in /@vite/client');
  const socket = await openHmrSocket(host, cookie, wsToken);
  const connected = await Promise.race([socket.next((m) => m.type === 'connected'), sleep(15_000).then(() => null)]);
  if (connected === null) throw new Error(`${label}: the HMR websocket did not connect`);
  const { content } = await json(await fetch(`${BASE}/api/sandbox/${project.id}/read-file?path=src/App.tsx`, { headers: auth }));
  const marker = `Edited ${label}`;
  const t2 = performance.now();
  const updated = socket.next((m) => m.type === 'update' || m.type === 'full-reload');
  await json(
    await fetch(`${BASE}/api/sandbox/${project.id}/write-file`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ path: 'src/App.tsx', content: content.replace(STARTER_TEXT, marker) }),
    }),
  );
  const message = await Promise.race([updated, sleep(15_000).then(() => null)]);
  if (message === null) throw new Error('no HMR update within 15 s');
  const writeToHmr = performance.now() - t2;
  const served = await previewRequest(host, `/src/App.tsx?t=${Date.now()}`, { cookie });
  if (!served.body.includes(marker)) throw new Error('the served module does not hold the edit');
  const writeToServed = performance.now() - t2;
  socket.close();

  await json(await fetch(`${BASE}/api/sandbox/${project.id}/cleanup`, { method: 'DELETE', headers: auth }));
  await fetch(`${BASE}/api/projects/${project.id}`, { method: 'DELETE', headers: auth });
  return { createToPreview, writeToHmr, writeToServed, hmrType: message.type };
}

const api = await startApi();
try {
  const auth = await signUp();
  const warm = await oneRun(auth, 'warm-up'); // installs nothing if the template cache is warm, primes the OS caches
  console.log(`warm-up: create→preview ${warm.createToPreview.toFixed(0)} ms, write→HMR ${warm.writeToHmr.toFixed(0)} ms`);
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await oneRun(auth, `run ${i + 1}`));
  console.log(`preview bench, ${RUNS} runs (node ${process.version}, ${(await import('node:os')).cpus().length} cores)`);
  console.log(`create project → preview 200 with the app: ${summary(runs.map((r) => r.createToPreview))}`);
  console.log(`write-file → HMR update through the proxy:  ${summary(runs.map((r) => r.writeToHmr))} (${runs.map((r) => r.hmrType).join(',')})`);
  console.log(`write-file → edited module served:        ${summary(runs.map((r) => r.writeToServed))}`);
} finally {
  await stopApi(api);
}

// A closed-loop load generator for the data bench, run as its own process so the API under test
// keeps its CPU. argv[2] is JSON: { mode: 'data' | 'raw', seconds, clients, ... }.
//  - data: supabase-js `from('items').select('*').limit(20)` against { url, anonKey } — the fetch
//    sends `{ref}.data.localhost` to { port } on 127.0.0.1 with the Host header (Node does not
//    resolve *.localhost) over a keep-alive agent with `clients` sockets.
//  - raw: the same query on a `pg` pool of { pool } connections to { adminUrl }.
// Prints { latencies, seconds, cpuMs } as JSON; any error or short answer fails the run.
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

// supabase-js and pg are the adapters library's dependencies (workspaces hoist them to the root).
const require = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../libs/adapters/package.json'));
const options = JSON.parse(process.argv[2]);
const { seconds, clients, rows } = options;

let query;
let close = async () => {};
if (options.mode === 'data') {
  const { createClient } = require('@supabase/supabase-js');
  const WebSocket = require('ws'); // Node 20 has no WebSocket; supabase-js builds its realtime client eagerly
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const hostFetch = (input, init = {}) => {
    const url = new URL(typeof input === 'string' ? input : input.url);
    return new Promise((resolve, reject) => {
      const headers = Object.fromEntries(new Headers(init.headers ?? {}).entries());
      const req = http.request(
        { host: '127.0.0.1', port: options.port, agent, path: url.pathname + url.search, method: init.method ?? 'GET', headers: { ...headers, host: url.host } },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve(new Response(res.statusCode === 204 ? null : Buffer.concat(chunks), { status: res.statusCode, headers: res.headers })));
        },
      );
      req.on('error', reject);
      if (init.body) req.write(init.body);
      req.end();
    });
  };
  const sb = createClient(options.url, options.anonKey, { global: { fetch: hostFetch }, realtime: { transport: WebSocket }, auth: { persistSession: false, autoRefreshToken: false } });
  query = async () => {
    const { data, error } = await sb.from('items').select('*').limit(20);
    if (error) throw new Error(`the data API answered an error: ${JSON.stringify(error)}`);
    return data.length;
  };
  close = async () => agent.destroy();
} else {
  const pg = require('pg');
  const pool = new pg.Pool({ connectionString: options.adminUrl, max: options.pool });
  query = async () => (await pool.query('SELECT * FROM items LIMIT 20')).rows.length;
  close = () => pool.end();
}

// One warm-up query per client (connections, the data API's schema cache), not measured.
await Promise.all(Array.from({ length: clients }, () => query()));

const latencies = [];
const cpu0 = process.cpuUsage();
const deadline = performance.now() + seconds * 1000;
const started = performance.now();
await Promise.all(
  Array.from({ length: clients }, async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const n = await query();
      if (n !== rows) throw new Error(`expected ${rows} rows, got ${n}`);
      latencies.push(performance.now() - t0);
    }
  }),
);
const elapsed = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpu0);
await close();
// The load client's own CPU (ms): supabase-js costs far more per request than a pg query.
process.stdout.write(JSON.stringify({ latencies, seconds: elapsed, cpuMs: (cpu.user + cpu.system) / 1000 }));

// Sandboxes on both hosts in one run: the bubblewrap host (SANDBOX_ENGINE=local) and the container
// host (SANDBOX_ENGINE=docker: Docker with gVisor, Kiln's private engine from
// tools/sandbox-image/engine.sh unless KILN_TEST_DOCKER_HOST is set).
//   1. create → preview (cold): ensure a new project, ask for its dev server until it runs, GET /
//      over its socket until the app's page answers; BENCH_RUNS (default 5) projects per host.
//   2. resume from pause → preview answers (container host): a project paused by the idle clock,
//      then devServer() (which resumes it) and GET /.
//   3. memory per active preview: PSS of every process of the sandbox (bubblewrap host: its
//      cgroup; container host: the container's cgroup, gVisor's sentry and gofer, and its shim),
//      with BENCH_DENSITY (default 8) previews served at once per host; and the same previews
//      paused, then stopped.
// The machine must be quiet (no tests running). Results: docs/performance.md.
//
//   npm run bench sandbox
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ContainerSandboxHost, LocalSandboxHost } from '@kiln/adapters';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const DENSITY = Number(process.env.BENCH_DENSITY ?? 8);
const CACHE = path.join(tmpdir(), 'kiln-bench-sandbox-cache');
const MiB = 1024 * 1024;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (v) => `${Math.round(v)} ms`;

function getOverSocket(socketPath) {
  return new Promise((resolve) => {
    const req = http.get({ socketPath, path: '/', headers: { host: 'localhost' } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.setTimeout(10_000, () => req.destroy());
  });
}

/** Asks for the dev server until it runs, then GET / until the app's page answers; ms taken. */
async function untilPreviewAnswers(host, id, started) {
  let last = '';
  while (performance.now() - started < 120_000) {
    const state = await host.devServer(id);
    if (state.status === 'failed') throw new Error(`${id}: ${state.message}`);
    last = `${state.status}: ${state.message}`;
    if (state.status === 'running') {
      const page = await getOverSocket(state.socketPath);
      if (page.status === 200 && page.body.includes('<div id="root">')) return performance.now() - started;
      last = `running, GET / answered ${page.status}: ${page.body.slice(0, 200)}`;
    }
    await sleep(20);
  }
  throw new Error(`${id}: no preview within 120 s (${last})`);
}

/** PSS in bytes of the given host processes (smaps_rollup). */
function pss(pids) {
  let total = 0;
  for (const pid of pids) {
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      if (m) total += Number(m[1]) * 1024;
    } catch {
      // gone
    }
  }
  return total;
}

const procsOf = (file) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

/** Every process of a bubblewrap sandbox: its cgroup (v1 memory hierarchy). */
function localPids(id) {
  const memory = '/sys/fs/cgroup/memory';
  const found = [];
  const walk = (dir, depth) => {
    if (depth > 4) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      const sub = path.join(dir, e.name);
      if (e.name.startsWith(`kiln-sandboxes-${process.pid}-`)) found.push(...procsOf(path.join(sub, id, 'cgroup.procs')));
      else walk(sub, depth + 1);
    }
  };
  walk(memory, 0);
  return found;
}

/** Every host process of a container: its cgroup (gVisor's sentry and gofer) and its shim. */
function containerPids(host, id, dockerHost) {
  const name = host.containers.nameOf(id);
  const inspect = spawnSync('docker', ['-H', dockerHost, 'inspect', '-f', '{{.Id}}', name], { encoding: 'utf8' });
  const full = inspect.stdout.trim();
  if (full === '') return [];
  const inCgroup = procsOf(`/sys/fs/cgroup/memory/docker/${full}/cgroup.procs`);
  const shim = spawnSync('pgrep', ['-f', `containerd-shim.*-id ${full}`], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  return [...inCgroup, ...shim];
}

async function main() {
  const engine = process.env.KILN_TEST_DOCKER_HOST || spawnSync('bash', ['tools/sandbox-image/engine.sh'], { encoding: 'utf8' }).stdout.trim();
  if (!engine) throw new Error('No Docker engine (tools/sandbox-image/engine.sh failed)');
  const roots = [mkdtempSync(path.join(tmpdir(), 'kiln-bench-local-')), mkdtempSync(path.join(tmpdir(), 'kiln-bench-docker-'))];
  const limits = {};
  const local = new LocalSandboxHost({ root: roots[0], cacheDir: CACHE, limits });
  const docker = new ContainerSandboxHost({ root: roots[1], cacheDir: CACHE, dockerHost: engine, pauseIdleMs: 3000, limits });
  const hosts = [
    { label: 'bubblewrap (local)', host: local, pids: (id) => localPids(id) },
    { label: 'Docker + gVisor', host: docker, pids: (id) => containerPids(docker, id, engine) },
  ];
  const results = {};
  try {
    for (const { label, host } of hosts) {
      await host.prepareTemplate();
      // Warm-up: the image is built, the starter's tree is in the page cache.
      await host.ensure('warmup');
      await untilPreviewAnswers(host, 'warmup', performance.now());
      await host.cleanup('warmup');
      const cold = [];
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        await host.ensure(`cold-${i}`);
        cold.push(await untilPreviewAnswers(host, `cold-${i}`, started));
      }
      results[label] = { cold };
      console.log(`${label}: create → preview p50 ${ms(pct(cold, 50))}, p90 ${ms(pct(cold, 90))} (${RUNS} runs)`);
    }

    // Resume from pause (the container host's idle clock pauses after 3 s).
    const resume = [];
    for (let i = 0; i < RUNS; i++) {
      const id = `cold-${i}`;
      for (let waited = 0; (await docker.machineState(id)).state !== 'paused'; waited += 200) {
        if (waited > 30_000) throw new Error(`${id} was never paused`);
        await sleep(200);
      }
      const started = performance.now();
      resume.push(await untilPreviewAnswers(docker, id, started));
    }
    console.log(`Docker + gVisor: resume from pause → preview p50 ${ms(pct(resume, 50))}, p90 ${ms(pct(resume, 90))}`);

    // Density: DENSITY previews served at once per host.
    for (const { label, host, pids } of hosts) {
      const ids = Array.from({ length: DENSITY }, (_, i) => `dense-${i}`);
      for (const id of ids) {
        await host.ensure(id);
        await untilPreviewAnswers(host, id, performance.now());
      }
      await sleep(5000); // settled after the first requests
      process.stdout.write(`${label}: ${DENSITY} previews served\n`);
      for (const id of ids) await untilPreviewAnswers(host, id, performance.now());
      const each = ids.map((id) => pss(pids(id)));
      const avg = each.reduce((a, b) => a + b, 0) / each.length;
      results[label].activeMiB = avg / MiB;
      console.log(`${label}: ${DENSITY} active previews, PSS per preview ${Math.round(avg / MiB)} MiB (min ${Math.round(Math.min(...each) / MiB)}, max ${Math.round(Math.max(...each) / MiB)}); ${Math.floor((20 * 1024 * MiB) / avg)} fit in 20 GiB`);
      if (host === docker) {
        for (let waited = 0; ; waited += 500) {
          const states = await Promise.all(ids.map((id) => docker.machineState(id)));
          if (states.every((s) => s.state === 'paused')) break;
          if (waited > 30_000) break;
          await sleep(500);
        }
        const paused = ids.map((id) => pss(pids(id))).reduce((a, b) => a + b, 0) / ids.length;
        console.log(`${label}: the same previews paused, PSS per preview ${Math.round(paused / MiB)} MiB`);
      }
    }
  } finally {
    await local.stopAll().catch(() => undefined);
    await docker.stopAll().catch(() => undefined);
    await docker.containers.removeAll().catch(() => undefined);
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  }
}

await main();

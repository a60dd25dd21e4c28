import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sandboxHostContract } from '@kiln/domain/contracts';
import { ContainerSandboxHost } from './container-sandbox-host.adapter.js';
import { TEST_SANDBOX_CACHE_DIR, tempSandboxRoot } from './testing/sandbox-test-dirs.js';
import { dockerEngineMissing, requireTestDockerEngine } from './testing/test-docker-engine.js';
import { getOverSocket } from './testing/unix-http.js';
import { waitFor } from './testing/wait-for.js';

const missing = dockerEngineMissing();
if (missing !== null) console.warn(`ContainerSandboxHost suites skipped: ${missing}`);
const withEngine = missing === null ? describe : describe.skip;

async function containerHost(options: Partial<ConstructorParameters<typeof ContainerSandboxHost>[0]> = {}) {
  const engine = await requireTestDockerEngine();
  const { root, close } = await tempSandboxRoot('kiln-container-sandboxes-');
  const host = new ContainerSandboxHost({ root, cacheDir: TEST_SANDBOX_CACHE_DIR, dockerHost: engine.dockerHost, runtime: engine.runtime, ...options });
  await host.prepareTemplate();
  return {
    host,
    root,
    engine,
    close: async () => {
      await host.stopAll();
      await host.containers.removeAll();
      await close();
    },
  };
}

if (missing === null) {
  sandboxHostContract('ContainerSandboxHost (Docker, gVisor)', async () => {
    const { host, close } = await containerHost();
    return { host, runsCommands: true, close };
  });
}

withEngine('ContainerSandboxHost', () => {
  let host: ContainerSandboxHost;
  let root: string;
  let close: () => Promise<void>;
  let engine: { dockerHost: string; runtime: string };
  let n = 0;
  const project = async () => {
    const id = `c${++n}`;
    await host.ensure(id);
    return id;
  };

  beforeAll(async () => {
    ({ host, root, engine, close } = await containerHost({ pauseIdleMs: 1500, stopIdleMs: 60_000 }));
  }, 600_000);
  afterAll(async () => close());

  it('runs commands in the project container, as an unprivileged user with no network and a read-only root', async () => {
    const id = await project();
    const who = await host.runCommand(id, 'id -u; id -g; cat /proc/self/status | grep ^CapEff');
    expect(who.stdout.split('\n').slice(0, 2)).toEqual(['10001', '0']);
    expect(who.stdout).toMatch(/CapEff:\s+0+\n/);
    const root = await host.runCommand(id, 'touch /usr/x 2>&1; echo rc=$?');
    expect(root.stdout).toMatch(/rc=1/);
    const network = await host.runCommand(id, `node -e "require('net').connect(80,'1.1.1.1').on('error',e=>{console.log(e.code);process.exit(0)}).on('connect',()=>console.log('CONNECTED'))"`, { timeoutSeconds: 20 });
    expect(network.stdout).not.toContain('CONNECTED');
    // Isolated: the engine answers and npm installs have bubblewrap on this machine.
    expect(await host.isolation()).toMatchObject({ isolated: true });
    const machine = await host.machineState(id);
    expect(machine).toMatchObject({ engine: 'docker', state: 'running' });
    expect(machine.memoryBytes).toBeGreaterThan(0);
  });

  it('holds the memory and process limits: past them a command fails, the host and the next command do not', async () => {
    const { host: small, close: closeSmall } = await containerHost({ limits: { memoryBytes: 256 * 1024 ** 2, processes: 64 } });
    try {
      await small.ensure('limits');
      const hog = await small.runCommand('limits', `node -e "const a = []; for (let i = 0; i < 100; i++) a.push(Buffer.alloc(10 * 1024 * 1024, 1)); console.log('ALLOCATED', a.length)"`, { timeoutSeconds: 60 });
      expect(hog.stdout).not.toContain('ALLOCATED');
      expect(hog.exitCode).not.toBe(0);
      // node's spawn fails at once with EAGAIN past the limit (bash would retry each fork for seconds).
      const forks = await small.runCommand(
        'limits',
        `node -e "const {spawn}=require('child_process'); let ok=0, failed=0; for (let i = 0; i < 200; i++) { const c = spawn('sleep', ['30']); c.on('error', () => failed++); c.on('spawn', () => ok++); } setTimeout(() => { console.log(ok, failed); process.exit(0); }, 3000)"`,
        { timeoutSeconds: 60 },
      );
      const [started = NaN, refused = NaN] = forks.stdout.trim().split(' ').map(Number);
      expect(started).toBeLessThanOrEqual(64);
      expect(refused).toBeGreaterThan(100);
      expect((await small.runCommand('limits', 'echo still here')).stdout).toBe('still here\n');
    } finally {
      await closeSmall();
    }
  }, 120_000);

  it('tells its metrics listener each sandbox state and memory', async () => {
    const seen: Array<{ id: string; state: string; memoryBytes: number | null }> = [];
    const { host: reporting, close: closeReporting } = await containerHost({ metricsIntervalMs: 200, onMetrics: (sandboxId, m) => seen.push({ id: sandboxId, state: m.state, memoryBytes: m.memoryBytes }) });
    try {
      await reporting.ensure('m1');
      await reporting.runCommand('m1', 'true');
      const first = await waitFor('a metrics report', () => seen.find((m) => m.id === 'm1' && m.state === 'running'));
      expect(first.memoryBytes).toBeGreaterThan(0);
    } finally {
      await closeReporting();
    }
  });

  it('kills a command and everything it started at its timeout', async () => {
    const id = await project();
    const result = await host.runCommand(id, 'sleep 300 & sleep 300; echo never', { timeoutSeconds: 2 });
    expect(result.timedOut).toBe(true);
    const left = await host.runCommand(id, 'ps -e -o args');
    expect(left.stdout).not.toContain('sleep 300');
  });

  it('pauses an idle container, and the next command resumes it', async () => {
    const id = await project();
    await host.runCommand(id, 'true');
    await waitFor('the container paused', async () => ((await host.machineState(id)).state === 'paused' ? true : undefined), 15_000);
    const again = await host.runCommand(id, 'echo awake');
    expect(again.stdout).toBe('awake\n');
    expect((await host.machineState(id)).state).toBe('running');
  });

  it('serves the preview from the container, through a socket Kiln links into its own folder', async () => {
    const id = await project();
    await host.devServer(id);
    const state = await waitFor(
      'the dev server to start',
      async () => {
        const s = await host.devServer(id);
        return s.status === 'running' || s.status === 'failed' ? s : undefined;
      },
      120_000,
    );
    expect(state.message).toBe('Website is running');
    await host.devServer(id);
    const page = (await getOverSocket(state.socketPath as string, '/')).body;
    expect(page).toContain('<div id="root">');
    // Kiln's name for the socket is a link it made itself, not a path the project chooses.
    expect(path.dirname(state.socketPath as string)).not.toContain(id);
    // A file Kiln writes from outside reaches the server (gVisor's watcher sees only changes made
    // inside, so Kiln tells the server), and a restore does too.
    // Through devServer() first, as the preview proxy asks (it resumes a paused container).
    const app = async () => {
      await host.devServer(id);
      return (await getOverSocket(state.socketPath as string, '/src/App.tsx')).body;
    };
    expect(await app()).toContain('Welcome to your Kiln app');
    const original = await host.readFile(id, 'src/App.tsx');
    await host.saveVersion(id, 'before the edit');
    await host.writeFile(id, 'src/App.tsx', original.replace('Welcome to your Kiln app', 'Edited from outside'));
    await waitFor('the edit served', async () => ((await app()).includes('Edited from outside') ? true : undefined), 10_000);
    const [before] = await host.versionHistory(id);
    await host.saveVersion(id, 'the edit');
    await host.restoreVersion(id, (before as { hash: string }).hash);
    await waitFor('the restore served', async () => ((await app()).includes('Welcome to your Kiln app') ? true : undefined), 10_000);
  }, 180_000);

  it('adopts its containers after a restart instead of making them again, and removes one with its project', async () => {
    const id = await project();
    await host.runCommand(id, 'true');
    const again = new ContainerSandboxHost({ root, cacheDir: TEST_SANDBOX_CACHE_DIR, dockerHost: engine.dockerHost, runtime: engine.runtime });
    expect(await again.containers.adopt()).toContain(id);
    expect((await again.runCommand(id, 'echo same')).stdout).toBe('same\n');
    await again.cleanup(id);
    expect((await host.machineState(id)).state).toBe('missing');
    expect(await readdir(root)).not.toContain(path.basename(id));
  });
});

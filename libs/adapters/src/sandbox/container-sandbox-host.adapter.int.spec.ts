import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sandboxHostContract } from '@kiln/domain/contracts';
import { ContainerSandboxHost } from './container-sandbox-host.adapter.js';
import { TEST_SANDBOX_CACHE_DIR, tempSandboxRoot } from './testing/sandbox-test-dirs.js';
import { testDockerEngine } from './testing/test-docker-engine.js';
import { getOverSocket } from './testing/unix-http.js';
import { waitFor } from './testing/wait-for.js';

const engine = await testDockerEngine();
if ('unavailable' in engine) console.warn(`ContainerSandboxHost suites skipped: ${engine.unavailable}`);
const withEngine = 'unavailable' in engine ? describe.skip : describe;

async function containerHost(options: Partial<ConstructorParameters<typeof ContainerSandboxHost>[0]> = {}) {
  if ('unavailable' in engine) throw new Error(engine.unavailable);
  const { root, close } = await tempSandboxRoot('kiln-container-sandboxes-');
  const host = new ContainerSandboxHost({ root, cacheDir: TEST_SANDBOX_CACHE_DIR, dockerHost: engine.dockerHost, runtime: engine.runtime, ...options });
  await host.prepareTemplate();
  return {
    host,
    root,
    close: async () => {
      await host.stopAll();
      await host.containers.removeAll();
      await close();
    },
  };
}

if (!('unavailable' in engine)) {
  sandboxHostContract(`ContainerSandboxHost (Docker, ${engine.runtime})`, async () => {
    const { host, close } = await containerHost();
    return { host, runsCommands: true, close };
  });
}

withEngine('ContainerSandboxHost', () => {
  let host: ContainerSandboxHost;
  let root: string;
  let close: () => Promise<void>;
  let n = 0;
  const project = async () => {
    const id = `c${++n}`;
    await host.ensure(id);
    return id;
  };

  beforeAll(async () => {
    ({ host, root, close } = await containerHost({ pauseIdleMs: 1500, stopIdleMs: 60_000 }));
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
    expect(await host.machineState(id)).toBe('running');
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
    await waitFor('the container paused', async () => ((await host.machineState(id)) === 'paused' ? true : undefined), 15_000);
    const again = await host.runCommand(id, 'echo awake');
    expect(again.stdout).toBe('awake\n');
    expect(await host.machineState(id)).toBe('running');
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
    const page = (await getOverSocket(state.socketPath as string, '/')).body;
    expect(page).toContain('<div id="root">');
    // Kiln's name for the socket is a link it made itself, not a path the project chooses.
    expect(path.dirname(state.socketPath as string)).not.toContain(id);
  }, 180_000);

  it('adopts its containers after a restart instead of making them again, and removes one with its project', async () => {
    const id = await project();
    await host.runCommand(id, 'true');
    const again = new ContainerSandboxHost({ root, cacheDir: TEST_SANDBOX_CACHE_DIR, dockerHost: (engine as { dockerHost: string }).dockerHost, runtime: (engine as { runtime: string }).runtime });
    expect(await again.containers.adopt()).toContain(id);
    expect((await again.runCommand(id, 'echo same')).stdout).toBe('same\n');
    await again.cleanup(id);
    expect(await host.machineState(id)).toBe('missing');
    expect(await readdir(root)).not.toContain(path.basename(id));
  });
});

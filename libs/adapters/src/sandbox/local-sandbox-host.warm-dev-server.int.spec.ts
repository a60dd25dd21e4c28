import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DevServerState } from '@kiln/domain';
import { DEFAULT_BWRAP_PATH, LocalSandboxHost } from './local-sandbox-host.adapter.js';
import { TEST_SANDBOX_CACHE_DIR, tempSandboxRoot } from './testing/sandbox-test-dirs.js';
import { getOverSocket as get } from './testing/unix-http.js';
import { waitFor } from './testing/wait-for.js';

const STARTER_TEXT = 'Welcome to your Kiln app';


/** pid and command line of every process whose command line mentions `text`. */
function processesMentioning(text: string): { pid: number; args: string }[] {
  return execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(text) && !/^\s*\d+\s+ps /.test(line))
    .map((line) => {
      const [pid, ...args] = line.trim().split(/\s+/);
      return { pid: Number(pid), args: args.join(' ') };
    });
}

// The warm dev server exists only where sandboxes are isolated (bubblewrap), as in production.
const describeIsolated = existsSync(DEFAULT_BWRAP_PATH) ? describe : describe.skip;

describeIsolated('LocalSandboxHost: a new project takes the dev server started ahead of it', () => {
  let root: string;
  let close: () => Promise<void>;
  let host: LocalSandboxHost;
  let quota: 'volume' | 'watch';

  beforeAll(async () => {
    ({ root, close } = await tempSandboxRoot('kiln-warm-'));
    root = path.join(root, 'sandboxes');
    quota = await LocalSandboxHost.diskQuotaFor(root);
    host = new LocalSandboxHost({ root, cacheDir: TEST_SANDBOX_CACHE_DIR, idleStopMs: 60_000, diskQuota: quota, warmDevServer: true });
    await host.prepareTemplate(); // makes the first warm server
  }, 120_000);
  afterAll(async () => {
    await host.stopAll();
    await close();
  });

  const warmServer = () =>
    waitFor('a warm dev server', () => {
      // The one waiting: a project's adopted server still names the folder it was started for (gone now).
      const waiting = processesMentioning(`${root}/.warm-`)
        .filter((p) => / warm /.test(p.args) && p.args.includes('vite-launcher'))
        .map((p) => ({ ...p, dir: /(\S*\/\.warm-[^\s/]+)/.exec(p.args)?.[1] as string }))
        .find((p) => existsSync(p.dir));
      return waiting;
    });

  it('adopts it: the folder, volume, socket, cgroup and process become the project\'s, and it serves the project', async () => {
    const warm = await warmServer();
    expect(existsSync(warm.dir)).toBe(true);
    // Seeded with the starter's files, so its type-checker makes the project's first program ahead.
    expect(await readFile(path.join(warm.dir, 'src/App.tsx'), 'utf8')).toContain(STARTER_TEXT);
    // Not a project: no sandbox id starts with a dot.
    await expect(host.readFile(path.basename(warm.dir), 'package.json')).rejects.toThrow();

    const id = 'warm-a';
    await host.ensure(id);
    const dir = path.join(root, id);
    // The same process serves the project: no launcher of its own was started for it.
    expect(processesMentioning(`dev ${dir} `)).toEqual([]);
    const state = await waitFor<DevServerState>('running', async () => {
      const s = await host.devServer(id);
      if (s.status === 'failed') throw new Error(s.message);
      return s.status === 'running' ? s : undefined;
    });
    expect(processesMentioning(warm.dir).map((p) => p.pid)).toContain(warm.pid);
    expect((await get(state.socketPath as string, '/src/App.tsx')).body).toContain(STARTER_TEXT);

    // The warm folder is gone: the project's folder is what it was (and its volume, renamed).
    expect(existsSync(warm.dir)).toBe(false);
    expect(await readdir(dir)).toEqual(expect.arrayContaining(['package.json', 'src', 'node_modules']));
    if (quota === 'volume') {
      const volumes = await readdir(path.join(path.dirname(root), 'sandbox-volumes'));
      expect(volumes).toContain(`${id}.img`);
      expect(volumes.filter((name) => name.startsWith(path.basename(warm.dir)))).toEqual([]);
    }
    // Its processes are in the project's cgroup now (where cgroups are used).
    const groups = await readFile(`/proc/${warm.pid}/cgroup`, 'utf8').catch(() => '');
    if (/kiln-sandboxes-/.test(groups)) {
      expect(groups).toMatch(new RegExp(`/${id}$`, 'm'));
      expect(groups).not.toContain('.warm-');
    }

    // Edits reach it through the moved folder: the module it serves changes.
    const app = await host.readFile(id, 'src/App.tsx');
    await host.writeFile(id, 'src/App.tsx', app.replace(STARTER_TEXT, 'Adopted and edited'));
    await waitFor('the edit served', async () => ((await get(state.socketPath as string, `/src/App.tsx?t=${Date.now()}`)).body.includes('Adopted and edited') ? true : undefined));

    // Removing the project stops it like any dev server.
    await host.cleanup(id);
    await waitFor('the adopted server gone', () => (processesMentioning(warm.dir).some((p) => p.pid === warm.pid) ? undefined : true));
  }, 90_000);

  it('makes the next one after a project took it, and a project made while none is ready starts its own', async () => {
    const next = await warmServer();
    await host.ensure('warm-b'); // takes `next`
    await host.ensure('warm-c'); // none ready yet: its dev server starts on its first request
    expect(processesMentioning(`dev ${path.join(root, 'warm-c')} `)).toEqual([]);
    await host.devServer('warm-c');
    expect(processesMentioning(`dev ${path.join(root, 'warm-c')} `).length).toBeGreaterThan(0);
    for (const id of ['warm-b', 'warm-c']) {
      await waitFor(`${id} running`, async () => {
        const s = await host.devServer(id);
        if (s.status === 'failed') throw new Error(s.message);
        return s.status === 'running' ? s : undefined;
      });
    }
    const third = await warmServer();
    expect(third.dir).not.toBe(next.dir);
  }, 90_000);
});

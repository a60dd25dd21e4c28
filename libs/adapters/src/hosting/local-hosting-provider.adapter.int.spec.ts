import { existsSync } from 'node:fs';
import { lstat, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { hostingProviderContract } from '@kiln/domain/contracts';
import { DEFAULT_BWRAP_PATH, LocalSandboxHost } from '../sandbox/local-sandbox-host.adapter.js';
import { TEST_SANDBOX_CACHE_DIR, tempSandboxRoot } from '../sandbox/testing/sandbox-test-dirs.js';
import { removeReadOnlyTree } from './hosting-paths.js';
import { LocalHostingProvider } from './local-hosting-provider.adapter.js';

const hasBwrap = existsSync(DEFAULT_BWRAP_PATH);
const label = hasBwrap ? 'in bubblewrap' : 'without bubblewrap';

/** An import Vite cannot resolve: the production build fails (a type error alone would not). */
const BROKEN_APP = "import './missing-styles.css';\nexport function App() {\n  return <p>broken</p>;\n}\n";

/**
 * The starter's config plus a plugin that, once Vite wrote the output, plants what must never be
 * published: links to the host's /etc/passwd and to Kiln's hosting folder, a link as a folder and
 * a FIFO (which would hang a naive copy).
 */
const planting = (hostingRoot: string) => `import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const plant = {
  name: 'plant',
  closeBundle() {
    const out = path.resolve('.kiln-build/release');
    symlinkSync('/etc/passwd', path.join(out, 'passwd.txt'));
    symlinkSync(${JSON.stringify(hostingRoot)}, path.join(out, 'kiln-data'));
    symlinkSync('/etc', path.join(out, 'assets', 'etc'));
    execFileSync('mkfifo', [path.join(out, 'pipe.txt')]);
  },
};

export default defineConfig({ plugins: [react(), tailwindcss(), plant], resolve: { tsconfigPaths: true } });
`;

interface World {
  host: LocalSandboxHost;
  provider: LocalHostingProvider;
  hostingRoot: string;
  project: (prefix: string) => Promise<string>;
  close: () => Promise<void>;
}

async function makeWorld(limits?: ConstructorParameters<typeof LocalHostingProvider>[0]['limits']): Promise<World> {
  const { root, close: closeRoot } = await tempSandboxRoot();
  const hostingRoot = await mkdtemp(path.join(tmpdir(), 'kiln-hosting-'));
  const host = new LocalSandboxHost({ root, cacheDir: TEST_SANDBOX_CACHE_DIR });
  await host.prepareTemplate();
  const provider = new LocalHostingProvider({ hostingRoot, builder: host, ...(limits === undefined ? {} : { limits }) });
  let n = 0;
  return {
    host,
    provider,
    hostingRoot,
    project: async (prefix) => {
      const id = `${prefix}-${++n}`;
      await host.ensure(id);
      return id;
    },
    close: async () => {
      await host.stopAll();
      await closeRoot();
      await removeReadOnlyTree(hostingRoot);
    },
  };
}

hostingProviderContract(`LocalHostingProvider (${label})`, async () => {
  const world = await makeWorld();
  return {
    provider: world.provider,
    sandbox: async (kind) => {
      const id = await world.project('contract');
      if (kind === 'fails') await world.host.writeFile(id, 'src/App.tsx', BROKEN_APP);
      return id;
    },
    served: (host) => world.provider.served(host),
    close: world.close,
  };
});

describe(`LocalHostingProvider (${label})`, () => {
  let w: World;
  beforeAll(async () => {
    w = await makeWorld();
  }, 180_000);
  afterAll(async () => {
    await w?.close();
  }, 60_000);

  it("stores the build's output read-only, with Vite's log and no server path in it (timed)", async () => {
    const sandbox = await w.project('app');
    const started = performance.now();
    const build = await w.provider.buildRelease({ sandboxId: sandbox, projectId: 'p1', releaseId: 'r1' });
    const ms = performance.now() - started;
    if (build.kind !== 'built') throw new Error(build.log);
    process.stdout.write(`release build of the starter (${label}): ${ms.toFixed(0)} ms, ${build.fileCount} files, ${build.sizeBytes} bytes\n`);
    expect(build.log).toContain('index.html');
    expect(build.log).not.toContain(w.hostingRoot);
    expect(build.log).not.toMatch(/\/tmp\/|\/var\//);
    const dir = w.provider.releaseDir('p1', 'r1');
    expect(await readFile(path.join(dir, 'index.html'), 'utf8')).toContain('<div id="root">');
    const assets = await readdir(path.join(dir, 'assets'));
    expect(assets.some((f) => /^index-[\w-]{8}\.js$/.test(f))).toBe(true);
    expect((await stat(path.join(dir, 'index.html'))).mode & 0o777).toBe(0o444);
    expect((await stat(dir)).mode & 0o777).toBe(0o555);
    expect((await stat(path.join(dir, 'assets'))).mode & 0o777).toBe(0o555);
    // Nothing temporary is left beside it.
    expect(await readdir(path.dirname(dir))).toEqual(['r1']);
  }, 120_000);

  it('answers a broken project with its build log (the error, project-relative), storing nothing', async () => {
    const sandbox = await w.project('broken');
    await w.host.writeFile(sandbox, 'src/App.tsx', BROKEN_APP);
    const build = await w.provider.buildRelease({ sandboxId: sandbox, projectId: 'p2', releaseId: 'r2' });
    expect(build.kind).toBe('failed');
    expect(build.log).toContain('missing-styles.css');
    expect(build.log).toContain('src/App.tsx');
    expect(build.log).not.toContain(TEST_SANDBOX_CACHE_DIR);
    expect(build.log).not.toMatch(/kiln-sandboxes-/);
    expect(existsSync(w.provider.releaseDir('p2', 'r2'))).toBe(false);
    expect(await readdir(path.dirname(w.provider.releaseDir('p2', 'r2'))).catch(() => [])).toEqual([]);
  }, 120_000);

  it("never copies a link (to /etc/passwd, to Kiln's data, as a folder) or a FIFO the build planted", async () => {
    const sandbox = await w.project('planted');
    await w.host.writeFile(sandbox, 'vite.config.ts', planting(w.hostingRoot));
    const build = await w.provider.buildRelease({ sandboxId: sandbox, projectId: 'p3', releaseId: 'r3' });
    if (build.kind !== 'built') throw new Error(build.log);
    const dir = w.provider.releaseDir('p3', 'r3');
    const top = await readdir(dir);
    expect(top).toContain('index.html');
    for (const name of ['passwd.txt', 'kiln-data', 'pipe.txt']) expect(top).not.toContain(name);
    expect(await readdir(path.join(dir, 'assets'))).not.toContain('etc');
    expect(build.log).toMatch(/Not published .*passwd\.txt/);
    // Only regular files and folders in the whole release.
    const walk = async (d: string): Promise<string[]> => {
      const bad: string[] = [];
      for (const name of await readdir(d)) {
        const info = await lstat(path.join(d, name));
        if (info.isDirectory()) bad.push(...(await walk(path.join(d, name))));
        else if (!info.isFile()) bad.push(path.join(d, name));
      }
      return bad;
    };
    expect(await walk(dir)).toEqual([]);
  }, 120_000);

  it('switches hosts atomically: a reader never finds the host missing or half of a release', async () => {
    const sandbox = await w.project('switch');
    for (const releaseId of ['ra', 'rb']) {
      if (releaseId === 'rb') await w.host.writeFile(sandbox, 'index.html', (await w.host.readFile(sandbox, 'index.html')).replace('<title>', '<title>B '));
      const build = await w.provider.buildRelease({ sandboxId: sandbox, projectId: 'p4', releaseId });
      expect(build.kind).toBe('built');
    }
    const host = 'switch.apps.example.test';
    await w.provider.activate({ slug: 'switch', releaseId: 'ra', hosts: [host] });
    const pointer = path.join(w.provider.hostsDir, host);
    const expectedA = await readFile(path.join(w.provider.releaseDir('p4', 'ra'), 'index.html'), 'utf8');
    const expectedB = await readFile(path.join(w.provider.releaseDir('p4', 'rb'), 'index.html'), 'utf8');
    expect(expectedA).not.toBe(expectedB);

    let stop = false;
    const seen = { a: 0, b: 0, other: [] as string[] };
    const reader = (async () => {
      while (!stop) {
        const text = await readFile(path.join(pointer, 'index.html'), 'utf8').catch((e: Error) => `error: ${e.message}`);
        if (text === expectedA) seen.a++;
        else if (text === expectedB) seen.b++;
        else seen.other.push(text.slice(0, 80));
      }
    })();
    const switches: number[] = [];
    for (let i = 0; i < 200; i++) {
      const started = performance.now();
      await w.provider.activate({ slug: 'switch', releaseId: i % 2 === 0 ? 'rb' : 'ra', hosts: [host] });
      switches.push(performance.now() - started);
    }
    stop = true;
    await reader;
    switches.sort((x, y) => x - y);
    process.stdout.write(`activate (one host): p50 ${switches[100]?.toFixed(2)} ms, p99 ${switches[198]?.toFixed(2)} ms; reads A ${seen.a}, B ${seen.b}\n`);
    expect(seen.other).toEqual([]);
    expect(seen.a).toBeGreaterThan(0);
    expect(seen.b).toBeGreaterThan(0);
    expect(await w.provider.served(host)).toBe('ra');
  }, 120_000);

  it('fails a build whose output passes the size or file limits, with the reason in its log', async () => {
    const small = await makeWorld({ maxBytes: 10_000 });
    const few = new LocalHostingProvider({ hostingRoot: small.hostingRoot, builder: small.host, limits: { maxFiles: 2 } });
    try {
      const sandbox = await small.project('big');
      const tooLarge = await small.provider.buildRelease({ sandboxId: sandbox, projectId: 'p5', releaseId: 'r5' });
      expect(tooLarge.kind).toBe('failed');
      expect(tooLarge.log).toContain('larger than');
      const tooMany = await few.buildRelease({ sandboxId: sandbox, projectId: 'p5', releaseId: 'r6' });
      expect(tooMany.kind).toBe('failed');
      expect(tooMany.log).toContain('more than 2 files');
      expect(await readdir(path.join(small.hostingRoot, 'releases', 'p5'))).toEqual([]);
    } finally {
      await small.close();
    }
  }, 180_000);

  it('refuses ids that could become paths', async () => {
    await expect(w.provider.buildRelease({ sandboxId: 'x', projectId: '../escape', releaseId: 'r' })).rejects.toThrow();
    await expect(w.provider.buildRelease({ sandboxId: 'x', projectId: 'p', releaseId: 'a/b' })).rejects.toThrow();
    await expect(w.provider.discardReleases('..')).rejects.toThrow();
    await rm(path.join(w.hostingRoot, 'nothing'), { force: true });
  });
});

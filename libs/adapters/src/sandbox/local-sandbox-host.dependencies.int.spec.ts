import { existsSync } from 'node:fs';
import { readFile, readlink, realpath, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { classifyPackageCommand, dependencySetFromPackageJson, runPackageCommand, type SandboxHostEvent } from '@kiln/domain';
import { dependencySetKey, type NpmInstallRequest } from './dependency-cache.js';
import { DEFAULT_BWRAP_PATH, INSTALLING_DEPENDENCIES_MESSAGE, LocalSandboxHost, STARTER_TEMPLATE_RELATIVE_DIR } from './local-sandbox-host.adapter.js';
import { TEST_SANDBOX_CACHE_DIR, tempSandboxRoot } from './testing/sandbox-test-dirs.js';

const hasBwrap = existsSync(DEFAULT_BWRAP_PATH);
const label = hasBwrap ? 'npm in bubblewrap' : 'npm without bubblewrap';

/**
 * A tiny real package with no dependencies of its own and its own types, nowhere in the starter's
 * tree (not even as a dependency of a dependency: nanoid, for one, comes with postcss).
 */
const NEW_PACKAGE = 'mitt';
const NEW_VERSION = '3.0.1';
const USES_NEW_PACKAGE = `import mitt from 'mitt';\n\nconst bus = mitt<{ hello: string }>();\nexport const newId = (): string => (bus.all.size > 0 ? 'busy' : 'idle');\n`;

/** Counts the npm installs the host runs (each one is a real npm process). */
class CountingHost extends LocalSandboxHost {
  installs: string[] = [];
  protected override runNpmInstall(request: NpmInstallRequest): Promise<void> {
    this.installs.push(request.dir);
    return super.runNpmInstall(request);
  }
}

type Manifest = { dependencies: Record<string, string>; devDependencies: Record<string, string> } & Record<string, unknown>;

describe(`LocalSandboxHost: package.json's dependencies are installed (${label})`, () => {
  let close: () => Promise<void>;
  let root: string;
  let host: CountingHost;
  let starterLink: string;
  let starterManifest: Manifest;
  /** The starter's set plus NEW_PACKAGE: its tree is removed first, so this run installs it for real. */
  let withNewPackage: Manifest;
  const events: SandboxHostEvent[] = [];
  const link = (id: string) => readlink(path.join(root, id, 'node_modules'));

  beforeAll(async () => {
    ({ root, close } = await tempSandboxRoot());
    host = new CountingHost({ root, cacheDir: TEST_SANDBOX_CACHE_DIR, idleStopMs: 60_000 });
    host.subscribe((e) => events.push(e));
    await host.prepareTemplate();
    starterManifest = JSON.parse(await readFile(path.join(STARTER_TEMPLATE_RELATIVE_DIR, 'package.json'), 'utf8')) as Manifest;
    withNewPackage = { ...starterManifest, dependencies: { ...starterManifest.dependencies, [NEW_PACKAGE]: NEW_VERSION } };
    const set = dependencySetFromPackageJson(JSON.stringify(withNewPackage));
    if (!set.ok) throw new Error(set.error.message);
    await rm(path.join(TEST_SANDBOX_CACHE_DIR, `deps-${dependencySetKey(set.value)}`), { recursive: true, force: true });
    await host.ensure('deps-starter');
    starterLink = await link('deps-starter');
  }, 180_000);
  afterAll(async () => {
    await host.stopAll();
    await close();
  });

  it('installs a package added to package.json at the next find-errors, once, and re-points the link', async () => {
    const id = 'deps-a';
    await host.ensure(id);
    expect(await link(id)).toBe(starterLink);
    await host.writeFile(id, 'package.json', JSON.stringify(withNewPackage, null, 2));
    await host.writeFile(id, 'src/new-id.ts', USES_NEW_PACKAGE);
    // The build sees only what the app imports: make the app use it.
    const app = await host.readFile(id, 'src/App.tsx');
    await host.writeFile(id, 'src/App.tsx', `import { newId } from './new-id';\n${app.replace('Welcome to your Kiln app', 'Welcome {newId()}')}`);
    const installsBefore = host.installs.length;

    const started = performance.now();
    const scan = await host.findErrors(id);
    process.stdout.write(`find-errors with one real install (${label}): ${(performance.now() - started).toFixed(0)} ms\n`);

    expect(scan).toEqual({ errors: [], errorCount: 0, warningCount: 0 });
    expect(host.installs.length).toBe(installsBefore + 1);
    const target = await link(id);
    expect(target).not.toBe(starterLink);
    expect(target.startsWith(await realpath(TEST_SANDBOX_CACHE_DIR))).toBe(true);
    expect(existsSync(path.join(target, NEW_PACKAGE, 'package.json'))).toBe(true);
    expect(existsSync(path.join(target, 'vite', 'package.json'))).toBe(true);
    // The old tree is untouched: other projects still use it.
    expect(existsSync(path.join(starterLink, 'react', 'package.json'))).toBe(true);
    expect(existsSync(path.join(starterLink, NEW_PACKAGE))).toBe(false);
    if (hasBwrap) {
      // npm's own cache (beside the trees) is hidden from the project's commands.
      const listing = await host.runCommand(id, ['ls', '-A', path.join(await realpath(TEST_SANDBOX_CACHE_DIR), 'npm-cache')]);
      expect(listing).toMatchObject({ exitCode: 0, stdout: '' });
    }
    // The temporary link of the swap is gone, and git never saw it.
    expect((await host.getTree(id, '.', [])).map((e) => e.name).filter((n) => n.startsWith('.kiln-node_modules'))).toEqual([]);
  }, 120_000);

  it('`npm install <pkg>` in the terminal goes through package.json and the shared cache: node_modules keeps working', async () => {
    const id = 'deps-terminal';
    await host.ensure(id);
    const lines: string[] = [];
    const installsBefore = host.installs.length;
    const command = classifyPackageCommand(`npm install ${NEW_PACKAGE}@${NEW_VERSION}`);
    if (command.kind === 'other') throw new Error('not a package command');
    const result = await runPackageCommand(host, id, command, '.', (_stream, text) => lines.push(text));
    expect(result).toMatchObject({ exitCode: 0, stderr: '', timedOut: false });
    expect(lines.join('')).toBe(result.stdout);
    // The same set as deps-a's (the test above installed it): taken from the cache, no npm run.
    expect(host.installs.length).toBe(installsBefore);
    const manifest = JSON.parse(await host.readFile(id, 'package.json')) as Manifest;
    expect(manifest.dependencies[NEW_PACKAGE]).toBe(NEW_VERSION);
    expect(await link(id)).toBe(await link('deps-a'));
    // The old bug: node_modules was deleted. It is still the link, and the packages resolve.
    const check = await host.runCommand(id, ['node', '--input-type=module', '-e', `import mitt from '${NEW_PACKAGE}'; import 'react'; console.log(typeof mitt);`]);
    expect(check).toMatchObject({ exitCode: 0, stdout: 'function\n' });
    // Refused lines change nothing.
    const refused = classifyPackageCommand('npm dedupe');
    if (refused.kind === 'other') throw new Error('not a package command');
    expect((await runPackageCommand(host, id, refused, '.')).exitCode).toBe(1);
    expect(await link(id)).toBe(await link('deps-a'));
  }, 120_000);

  it('reuses the installed tree for another project asking for the same set, in any order', async () => {
    const id = 'deps-b';
    await host.ensure(id);
    // Same names and ranges, sections and keys in another order.
    const reordered = {
      devDependencies: Object.fromEntries(Object.entries(withNewPackage.devDependencies).reverse()),
      dependencies: Object.fromEntries(Object.entries(withNewPackage.dependencies).reverse()),
      name: 'another-app',
      type: 'module',
    };
    await host.writeFile(id, 'package.json', JSON.stringify(reordered));
    await host.writeFile(id, 'src/new-id.ts', USES_NEW_PACKAGE);
    const installsBefore = host.installs.length;
    expect(await host.findErrors(id)).toEqual({ errors: [], errorCount: 0, warningCount: 0 });
    expect(host.installs.length).toBe(installsBefore);
    expect(await link(id)).toBe(await link('deps-a'));
  }, 60_000);

  it('reports a package npm cannot install as an error in package.json, and keeps the link', async () => {
    const id = 'deps-c';
    await host.ensure(id);
    const missing = 'kiln-test-no-such-package-7f3a9c';
    await host.writeFile(id, 'package.json', JSON.stringify({ ...starterManifest, dependencies: { ...starterManifest.dependencies, [missing]: '^1.0.0' } }));
    const installsBefore = host.installs.length;
    const scan = await host.findErrors(id);
    expect(scan.errorCount).toBe(1);
    expect(scan.errors[0]).toMatchObject({ file: 'package.json', line: 1, column: 1, severity: 'error' });
    expect(scan.errors[0]?.message).toMatch(/^Installing the packages in package\.json failed: npm install failed/);
    expect(scan.errors[0]?.message).toContain(missing);
    expect(scan.errors[0]?.message).toMatch(/404/);
    expect(await link(id)).toBe(starterLink);
    expect(host.installs.length).toBe(installsBefore + 1);
    // Asked again at once (an AI turn's repair round): the same answer without running npm again.
    expect(await host.findErrors(id)).toEqual(scan);
    expect(host.installs.length).toBe(installsBefore + 1);
    // Nothing half-installed is left in the cache.
    expect(existsSync(path.join(TEST_SANDBOX_CACHE_DIR, 'deps-'))).toBe(false);
  }, 120_000);

  it('refuses what is not a registry package (a git URL) without running npm, next to the files’ own errors', async () => {
    const id = 'deps-d';
    await host.ensure(id);
    const manifest = { ...starterManifest, dependencies: { ...starterManifest.dependencies, evil: 'git+https://example.com/evil.git' } };
    await host.writeFile(id, 'package.json', JSON.stringify(manifest));
    await host.writeFile(id, 'src/broken.ts', "export const n: number = 'x';\n");
    const installsBefore = host.installs.length;
    const scan = await host.findErrors(id);
    expect(scan.errors).toEqual([
      expect.objectContaining({ file: 'package.json', severity: 'error', message: expect.stringMatching(/evil.*git\+https/) }),
      expect.objectContaining({ file: 'src/broken.ts', line: 1 }),
    ]);
    expect(scan.errorCount).toBe(2);
    expect(host.installs.length).toBe(installsBefore);
    expect(await link(id)).toBe(starterLink);
    // Put right, the project is clean again and the link where it was.
    await host.writeFile(id, 'package.json', JSON.stringify(starterManifest));
    await host.deleteFile(id, 'src/broken.ts');
    expect(await host.findErrors(id)).toEqual({ errors: [], errorCount: 0, warningCount: 0 });
    expect(await link(id)).toBe(starterLink);
  }, 60_000);

  it('restarts a running dev server on the new tree when the set changes, and ensure re-points too', async () => {
    const id = 'deps-e';
    await host.ensure(id);
    const running = async () => {
      const until = performance.now() + 60_000;
      for (;;) {
        const state = await host.devServer(id);
        if (state.status === 'failed') throw new Error(state.message);
        if (state.status === 'running') return state;
        if (performance.now() > until) throw new Error('dev server did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await running();
    const seen = events.length;
    await host.writeFile(id, 'package.json', JSON.stringify(withNewPackage)); // an installed set: no npm
    const installsBefore = host.installs.length;
    await host.findErrors(id);
    expect(await link(id)).toBe(await link('deps-a'));
    const after = events.slice(seen).filter((e) => e.sandboxId === id).map((e) => e.state.status);
    expect(after.slice(0, 2)).toEqual(['stopped', 'starting']);
    await running();
    // Back to the starter's set: ensure (opening the project) re-points the link at once.
    await host.writeFile(id, 'package.json', JSON.stringify(starterManifest));
    await host.ensure(id);
    expect(await link(id)).toBe(starterLink);
    expect(host.installs.length).toBe(installsBefore);
    await host.cleanup(id);
  }, 120_000);
});

/**
 * The dev-server side with a stand-in for npm that waits for a gate (no network: the "installed"
 * tree is a link to the starter's, so Vite still runs), to see what the preview gets meanwhile.
 */
describe('LocalSandboxHost: the dev server while a new dependency set installs', () => {
  let close: () => Promise<void>;
  let root: string;
  let host: GatedHost;
  const events: SandboxHostEvent[] = [];
  let starterLink: string;
  let starterManifest: Manifest;
  const withFake = (version: string): Manifest => ({ ...starterManifest, dependencies: { ...starterManifest.dependencies, 'kiln-fake-dependency': version } });

  class GatedHost extends LocalSandboxHost {
    installs = 0;
    private open: () => void = () => undefined;
    private gate: Promise<void> = Promise.resolve();
    close(): void {
      this.gate = new Promise((resolve) => (this.open = resolve));
    }
    release(): void {
      this.open();
    }
    protected override async runNpmInstall({ dir }: NpmInstallRequest): Promise<void> {
      this.installs += 1;
      await this.gate;
      await symlink(starterLink, path.join(dir, 'node_modules'), 'dir');
    }
  }

  const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
    const until = performance.now() + 60_000;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (performance.now() > until) throw new Error(`Timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const running = (id: string) =>
    waitFor('the dev server', async () => {
      const state = await host.devServer(id);
      if (state.status === 'failed') throw new Error(state.message);
      return state.status === 'running' ? state : undefined;
    });
  const link = (id: string) => readlink(path.join(root, id, 'node_modules'));

  beforeAll(async () => {
    ({ root, close } = await tempSandboxRoot());
    host = new GatedHost({ root, cacheDir: TEST_SANDBOX_CACHE_DIR, idleStopMs: 60_000 });
    host.subscribe((e) => events.push(e));
    await host.prepareTemplate();
    starterManifest = JSON.parse(await readFile(path.join(STARTER_TEMPLATE_RELATIVE_DIR, 'package.json'), 'utf8')) as Manifest;
    for (const version of ['1.0.0', '2.0.0']) {
      const set = dependencySetFromPackageJson(JSON.stringify(withFake(version)));
      if (!set.ok) throw new Error(set.error.message);
      await rm(path.join(TEST_SANDBOX_CACHE_DIR, `deps-${dependencySetKey(set.value)}`), { recursive: true, force: true });
    }
    await host.ensure('bg');
    starterLink = await link('bg');
  }, 180_000);
  afterEach(() => host.release()); // a failed test must not leave an install waiting
  afterAll(async () => {
    await host.stopAll();
    await close();
  });

  it('keeps a running server serving during the install, then restarts it on the new tree', async () => {
    await running('bg');
    host.close();
    await host.writeFile('bg', 'package.json', JSON.stringify(withFake('1.0.0')));
    expect(await host.devServer('bg')).toMatchObject({ status: 'running' });
    await waitFor('the background install', async () => (host.installs > 0 ? true : undefined));
    expect(await host.devServer('bg')).toMatchObject({ status: 'running' });
    expect(host.installs).toBe(1); // one background install, however many requests
    expect(await link('bg')).toBe(starterLink);
    const seen = events.length;
    host.release();
    const relinked = await waitFor('the new link', async () => {
      const target = await link('bg');
      return target === starterLink ? undefined : target;
    });
    expect(path.basename(path.dirname(relinked))).toMatch(/^deps-[0-9a-f]{16}$/);
    await running('bg');
    expect(events.slice(seen).map((e) => e.state.status)).toEqual(['stopped', 'starting', 'running']);
  }, 90_000);

  it('answers "installing" for a stopped server until the new set is linked, then starts it', async () => {
    await host.stopAll();
    host.close();
    await host.writeFile('bg', 'package.json', JSON.stringify(withFake('2.0.0')));
    const before = await link('bg');
    expect(await host.devServer('bg')).toEqual({ status: 'starting', socketPath: null, message: INSTALLING_DEPENDENCIES_MESSAGE });
    expect(await host.devServer('bg')).toEqual({ status: 'starting', socketPath: null, message: INSTALLING_DEPENDENCIES_MESSAGE });
    host.release();
    await running('bg');
    expect(await link('bg')).not.toBe(before);
    expect(host.installs).toBe(2);
  }, 90_000);
});

import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { type DependencySet, dependencySetFromPackageJson } from '@kiln/domain';
import { DependencyCache, dependencySetKey, type NpmInstallRequest, npmOutputTail, VITE_TEMP_LINK, VITE_TEMP_TARGET } from './dependency-cache.js';
import { tempSandboxRoot } from './testing/sandbox-test-dirs.js';

function setOf(manifest: unknown): DependencySet {
  const set = dependencySetFromPackageJson(JSON.stringify(manifest));
  if (!set.ok) throw new Error(set.error.message);
  return set.value;
}

describe('dependencySetKey', () => {
  it('is the same for the same names and ranges in any order, and names a 16-hex-digit tree', () => {
    const a = setOf({ dependencies: { react: '19.3.1', mitt: '^3.0.1' }, devDependencies: { vite: '8.3.8', typescript: '6.0.3' } });
    const b = setOf({ name: 'x', devDependencies: { typescript: '6.0.3', vite: '8.3.8' }, dependencies: { mitt: ' ^3.0.1', react: '19.3.1' } });
    expect(dependencySetKey(a)).toBe(dependencySetKey(b));
    expect(dependencySetKey(a)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('differs when a range, a name or a section differs', () => {
    const base = dependencySetKey(setOf({ dependencies: { mitt: '3.0.1' } }));
    expect(dependencySetKey(setOf({ dependencies: { mitt: '3.0.0' } }))).not.toBe(base);
    expect(dependencySetKey(setOf({ dependencies: { ms: '3.0.1' } }))).not.toBe(base);
    expect(dependencySetKey(setOf({ devDependencies: { mitt: '3.0.1' } }))).not.toBe(base);
    expect(dependencySetKey(setOf({}))).not.toBe(base);
  });
});

describe('DependencyCache (with a fake npm)', () => {
  let root: string;
  let close: () => Promise<void>;
  let now: number;
  let requests: NpmInstallRequest[];
  /** What the fake npm does: by default it installs one file per package. */
  let behaviour: (request: NpmInstallRequest) => Promise<void>;
  const fakeNpm = async (request: NpmInstallRequest) => {
    requests.push(request);
    await behaviour(request);
  };
  const cache = () => new DependencyCache({ cacheDir: path.join(root, 'cache'), installer: fakeNpm, failedRetryMs: 30_000, now: () => now });

  beforeEach(async () => {
    ({ root, close } = await tempSandboxRoot('kiln-dependency-cache-'));
    now = 0;
    requests = [];
    behaviour = async ({ dir }) => {
      const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
      for (const name of Object.keys(manifest.dependencies)) {
        await mkdir(path.join(dir, 'node_modules', name), { recursive: true });
        await writeFile(path.join(dir, 'node_modules', name, 'package.json'), '{}');
      }
    };
  });
  afterEach(async () => {
    await close();
  });

  it('installs a set once for concurrent callers, into deps-<key>, from a package.json holding only the set', async () => {
    const deps = cache();
    const set = setOf({ dependencies: { mitt: '3.0.1' }, scripts: { preinstall: 'evil' } });
    const [a, b, c] = await Promise.all([deps.install(set), deps.install(set), deps.install(set)]);
    expect(new Set([a, b, c]).size).toBe(1);
    expect(a).toBe(path.join(await deps.realCacheDir(), `deps-${dependencySetKey(set)}`, 'node_modules'));
    expect(a).toBe(await deps.nodeModulesFor(set));
    expect(requests).toHaveLength(1);
    expect(deps.installCount).toBe(1);
    expect(existsSync(path.join(a, 'mitt', 'package.json'))).toBe(true);
    const manifest = JSON.parse(await readFile(path.join(a, '..', 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toEqual({ name: 'kiln-dependencies', private: true, dependencies: { mitt: '3.0.1' }, devDependencies: {} });
    // npm wrote only in its temporary folder and its cache, both inside the cache folder.
    const request = requests[0] as NpmInstallRequest;
    expect(path.dirname(request.dir)).toBe(await deps.realCacheDir());
    expect(path.basename(request.dir)).toMatch(/^\.tmp-deps-/);
    expect(request.npmCache).toBe(path.join(await deps.realCacheDir(), 'npm-cache'));
    // Later callers, in this cache or another one over the same folder, find it installed.
    expect(await cache().install(set)).toBe(a);
    expect(requests).toHaveLength(1);
    expect((await readdir(await deps.realCacheDir())).filter((e) => e.startsWith('.tmp-'))).toEqual([]);
  });

  it('gives an empty set an empty node_modules (npm makes none)', async () => {
    behaviour = async () => undefined;
    const nodeModules = await cache().install(setOf({}));
    expect((await readdir(nodeModules)).filter((name) => name !== VITE_TEMP_LINK)).toEqual([]);
    // Every tree links Vite's temporary folder to the sandbox's private /tmp (the tree is read-only there).
    expect(await readlink(path.join(nodeModules, VITE_TEMP_LINK))).toBe(VITE_TEMP_TARGET);
  });

  it('remembers a failure for the retry delay, leaves no half tree, then tries again (waiting twice as long after a second failure)', async () => {
    const deps = cache();
    const set = setOf({ dependencies: { 'no-such-package': '^1.0.0' } });
    behaviour = async () => {
      throw new Error('npm install failed (exit code 1):\nnpm error 404 Not Found');
    };
    await expect(deps.install(set)).rejects.toThrow(/404/);
    expect(deps.recentlyFailed(set)).toBe(true);
    expect(deps.recentlyFailed(setOf({ dependencies: { mitt: '3.0.1' } }))).toBe(false);
    now = 29_999;
    await expect(deps.install(set)).rejects.toThrow(/404/);
    expect(requests).toHaveLength(1);
    const entries = await readdir(await deps.realCacheDir());
    expect(entries.filter((e) => e.startsWith('deps-') || e.startsWith('.tmp-'))).toEqual([]);
    now = 30_000;
    expect(deps.recentlyFailed(set)).toBe(false);
    await expect(deps.install(set)).rejects.toThrow(/404/);
    expect(requests).toHaveLength(2);
    now = 30_000 + 59_999;
    expect(deps.recentlyFailed(set)).toBe(true);
    now = 30_000 + 60_000;
    expect(deps.recentlyFailed(set)).toBe(false);
    behaviour = async ({ dir }) => {
      await mkdir(path.join(dir, 'node_modules', 'no-such-package'), { recursive: true });
    };
    await expect(deps.install(set)).resolves.toMatch(/node_modules$/);
    expect(requests).toHaveLength(3);
    expect(deps.recentlyFailed(set)).toBe(false);
  });
});

describe('npmOutputTail', () => {
  it("keeps npm's last lines without blanks or the log-file pointer", () => {
    const output = [
      ...Array.from({ length: 30 }, (_, i) => `npm http fetch GET 200 https://registry.npmjs.org/p${i}`),
      'npm error code E404',
      '',
      'npm error 404 Not Found - GET https://registry.npmjs.org/kiln-nope',
      'npm error A complete log of this run can be found in: /cache/npm-cache/_logs/x-debug-0.log',
      '',
    ].join('\n');
    const tail = npmOutputTail(output).split('\n');
    expect(tail).toHaveLength(15);
    expect(tail.slice(-2)).toEqual(['npm error code E404', 'npm error 404 Not Found - GET https://registry.npmjs.org/kiln-nope']);
  });
});

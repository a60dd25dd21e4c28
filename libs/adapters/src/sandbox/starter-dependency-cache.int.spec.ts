import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readlink, realpath, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEFAULT_BWRAP_PATH, LocalSandboxHost } from './local-sandbox-host.adapter.js';
import { TEST_SANDBOX_CACHE_DIR, tempSandboxRoot } from './testing/sandbox-test-dirs.js';

const hasBwrap = existsSync(DEFAULT_BWRAP_PATH);

describe('LocalSandboxHost: the starter dependency cache', () => {
  let root: string;
  let close: () => Promise<void>;
  let host: LocalSandboxHost;

  beforeAll(async () => {
    ({ root, close } = await tempSandboxRoot());
    host = new LocalSandboxHost({ root, cacheDir: TEST_SANDBOX_CACHE_DIR });
    await host.prepareTemplate(); // the first run ever installs (≈ 3 s from npm's offline cache)
  }, 120_000);
  afterAll(async () => {
    await close();
  });

  it('links every new sandbox to one shared node_modules (the time a warm one takes is printed; the bench measures it)', async () => {
    const started = performance.now();
    const info = await host.ensure('cache-a');
    const elapsed = performance.now() - started;
    await host.ensure('cache-b');
    expect(info.machineCreated).toBe(true);
    const a = await readlink(path.join(root, 'cache-a', 'node_modules'));
    const b = await readlink(path.join(root, 'cache-b', 'node_modules'));
    expect(a).toBe(b);
    expect(a.startsWith(await realpath(TEST_SANDBOX_CACHE_DIR))).toBe(true);
    expect(existsSync(path.join(a, 'vite', 'package.json'))).toBe(true);
    expect(existsSync(path.join(a, 'react', 'package.json'))).toBe(true);
    process.stdout.write(`ensure (warm cache) took ${elapsed.toFixed(0)} ms\n`);
  });

  it('hides the link from the tree and git, and refuses file operations through it', async () => {
    const id = 'cache-c';
    await host.ensure(id);
    const tree = await host.getTree(id, '.');
    expect(tree.map((e) => e.name)).not.toContain('node_modules');
    const history = await host.versionHistory(id);
    expect(history.flatMap((c) => c.filesChanged).some((f) => f.startsWith('node_modules'))).toBe(false);
    for (const p of ['node_modules/react/index.js', 'node_modules/kiln-planted.js', 'node_modules']) {
      await expect(host.writeFile(id, p, 'pwned')).rejects.toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE' });
    }
    await expect(host.readFile(id, 'node_modules/react/package.json')).rejects.toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE' });
    await expect(host.deleteFile(id, 'node_modules/react')).rejects.toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE' });
    // Deleting the link itself is allowed (it removes the link, never the cache); ensure puts it back.
    const target = await readlink(path.join(root, id, 'node_modules'));
    await host.deleteFile(id, 'node_modules');
    expect(existsSync(path.join(target, 'react', 'package.json'))).toBe(true);
    expect((await host.ensure(id)).machineCreated).toBe(false);
    expect((await lstat(path.join(root, id, 'node_modules'))).isSymbolicLink()).toBe(true);
  });

  it('repairs a dangling link on ensure', async () => {
    const id = 'cache-d';
    await host.ensure(id);
    const link = path.join(root, id, 'node_modules');
    const target = await readlink(link);
    await unlink(link);
    await symlink(path.join(root, 'gone', 'node_modules'), link);
    await host.ensure(id);
    expect(await readlink(link)).toBe(target);
  });

  (hasBwrap ? it : it.skip)('lets commands inside bubblewrap use the dependencies, read-only', async () => {
    const id = 'cache-e';
    await host.ensure(id);
    const resolved = await host.runCommand(id, `node -e "console.log(require.resolve('react'))"`);
    expect(resolved).toMatchObject({ exitCode: 0 });
    expect(resolved.stdout.trim().startsWith(await realpath(TEST_SANDBOX_CACHE_DIR))).toBe(true);
    const tsc = await host.runCommand(id, 'node node_modules/typescript/bin/tsc --version');
    expect(tsc.stdout).toMatch(/^Version \d+\./);
    const write = await host.runCommand(id, 'touch node_modules/kiln-planted 2>&1; echo "exit=$?"');
    expect(write.stdout).toMatch(/Read-only file system/);
    expect(write.stdout).toMatch(/exit=1/);
    expect(existsSync(path.join(root, id, 'node_modules', 'kiln-planted'))).toBe(false);
  });

  it('installs once when several hosts (as several API processes would) prepare a cold cache at the same time', async () => {
    const { root: cold, close: closeCold } = await tempSandboxRoot('kiln-cold-cache-');
    try {
      const cacheDir = path.join(cold, 'cache');
      // A one-package template keeps the three real installs quick (the race is what is tested).
      const templateDir = path.join(cold, 'template');
      await mkdir(templateDir);
      await writeFile(path.join(templateDir, 'package.json'), JSON.stringify({ name: 'tiny', private: true, dependencies: { clsx: '2.1.1' } }));
      const hosts = [1, 2, 3].map((i) => new LocalSandboxHost({ root: path.join(cold, `sandboxes-${i}`), cacheDir, templateDir }));
      // Each host also answers its own concurrent callers with one install.
      await Promise.all(hosts.flatMap((h) => [h.prepareTemplate(), h.ensure('p')]));
      const entries = await readdir(cacheDir);
      expect(entries.filter((e) => e.startsWith('deps-'))).toHaveLength(1);
      expect(entries.filter((e) => e.startsWith('.tmp-'))).toEqual([]);
      const targets = await Promise.all(hosts.map((_, i) => readlink(path.join(cold, `sandboxes-${i + 1}`, 'p', 'node_modules'))));
      expect(new Set(targets).size).toBe(1);
      expect(existsSync(path.join(targets[0] ?? '', 'clsx', 'package.json'))).toBe(true);
    } finally {
      await closeCold();
    }
  }, 120_000);

  it('without a cache, sandboxes simply have no node_modules', async () => {
    const bare = new LocalSandboxHost({ root: path.join(root, 'bare'), cacheDir: null });
    await bare.prepareTemplate();
    await bare.ensure('p');
    expect(existsSync(path.join(root, 'bare', 'p', 'node_modules'))).toBe(false);
    await rm(path.join(root, 'bare'), { recursive: true, force: true });
  });
});

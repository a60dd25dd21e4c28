import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseGitUrl } from '@kiln/domain';
import { type FakeGitServer, startFakeGitServer } from '../../testing/fake-git-server.js';
import { BubblewrapJail } from '../isolation/bubblewrap-jail.js';
import { sandboxLimits } from '../isolation/sandbox-limits.js';
import { DEFAULT_BWRAP_PATH, LocalSandboxHost } from '../local-sandbox-host.adapter.js';
import { TEST_SANDBOX_CACHE_DIR, tempSandboxRoot } from '../testing/sandbox-test-dirs.js';
import { SandboxedGitImporter } from './sandboxed-git-importer.js';

const hasBwrap = existsSync(DEFAULT_BWRAP_PATH);

async function rejection(promise: Promise<unknown>): Promise<{ name?: string; reason?: string; message?: string }> {
  try {
    await promise;
    return {};
  } catch (e) {
    return e as { name?: string; reason?: string };
  }
}

(hasBwrap ? describe : describe.skip)('SandboxedGitImporter against a local git smart-HTTP server', () => {
  let git: FakeGitServer;
  let root: string;
  let close: () => Promise<void>;
  let host: LocalSandboxHost;
  let n = 0;
  const importer = (options: { maxBytes?: number; allowTestServer?: boolean } = {}) =>
    new SandboxedGitImporter({
      projectDir: async (id) => path.join(root, id),
      jail: new BubblewrapJail({ bwrapPath: DEFAULT_BWRAP_PATH, runtimeDir: path.join(root, '..', 'git-import-etc') }),
      limits: sandboxLimits({}),
      runtimeDir: path.join(root, '..', 'git-import-run'),
      forwarderDir: TEST_SANDBOX_CACHE_DIR,
      ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
      ...(options.allowTestServer === false ? {} : { testOrigins: [git.origin] }),
    });
  const url = (name: string) => {
    const parsed = parseGitUrl(git.urlOf(name), { allowOrigins: [git.origin] });
    if (!parsed.ok) throw new Error(parsed.error.message);
    return parsed.value;
  };
  const project = async () => {
    const id = `import-${++n}`;
    await host.ensure(id);
    return id;
  };

  beforeAll(async () => {
    git = await startFakeGitServer();
    await git.addRepository('site', {
      'README.md': '# Imported site\n',
      'src/App.tsx': 'export const App = () => <h1>Imported</h1>;\n',
      'logo.bin': Buffer.from([0, 1, 2, 255, 254]),
    });
    await git.addRepository('huge', { 'big.txt': 'x'.repeat(512 * 1024) });
    ({ root, close } = await tempSandboxRoot());
    host = new LocalSandboxHost({ root, cacheDir: TEST_SANDBOX_CACHE_DIR });
    await host.prepareTemplate();
  }, 180_000);
  afterAll(async () => {
    await host?.stopAll();
    await close?.();
    await git?.close();
  });

  it('clones over smart HTTP inside the sandbox and replaces the project files, without .git, keeping node_modules', async () => {
    const id = await project();
    const result = await importer().importRepository(id, url('site'));
    expect(result).toEqual({ files: 3, bytes: expect.any(Number) });
    expect(await host.readFile(id, 'src/App.tsx')).toContain('Imported');
    expect(await readFile(path.join(root, id, 'logo.bin'))).toEqual(Buffer.from([0, 1, 2, 255, 254]));
    const names = await readdir(path.join(root, id));
    expect(names).not.toContain('.git');
    expect(names).not.toContain('index.html'); // the starter's files are gone
    expect(names).toContain('node_modules');
    expect(git.requests.some((r) => r.includes('/site.git/git-upload-pack'))).toBe(true);
  }, 120_000);

  it('stops a repository over the byte cap while fetching, and leaves the project as it was', async () => {
    const id = await project();
    const failure = await rejection(importer({ maxBytes: 64 * 1024 }).importRepository(id, url('huge')));
    expect(failure).toMatchObject({ name: 'RepositoryImportError' });
    expect(failure.reason).toMatch(/larger than/);
    expect(await host.readFile(id, 'index.html')).toContain('<');
  }, 120_000);

  it('cannot reach the loopback server unless the test names it: the sandbox has no other way out', async () => {
    const id = await project();
    const failure = await rejection(importer({ allowTestServer: false }).importRepository(id, url('site')));
    expect(failure).toMatchObject({ name: 'RepositoryImportError' });
    expect(await host.readFile(id, 'index.html')).toContain('<');
  }, 120_000);
});

import { describe, expect, it } from '@jest/globals';
import { InProcessTurnLock } from '../ai/engine/project-turn-lock.js';
import { OwnedProjects } from '../projects/owned-projects.js';
import { newProject } from '../projects/project.entity.js';
import type { ProblemLog } from '../shared/problem-log.port.js';
import { FixedClock } from '../testing/fixed-clock.js';
import { InMemoryProjectRepository } from '../testing/in-memory-project-repository.js';
import { InMemorySandboxHost } from '../testing/in-memory-sandbox-host.js';
import { RecordedFilesChanged } from '../testing/recorded-files-changed.js';
import { type GitUrl, parseGitUrl } from './git-url.js';
import { RepositoryImportError, type RepositoryImporter } from './repository-importer.port.js';
import { SetupRepository } from './setup-repository.use-case.js';

const PROJECT = 'project-1';

describe('parseGitUrl', () => {
  it.each([
    ['https://github.com/vitejs/vite', 'https://github.com/vitejs/vite', 'https://github.com'],
    ['  https://GitLab.com/a/b.git ', 'https://gitlab.com/a/b.git', 'https://gitlab.com'],
    ['https://git.example.org:8443/team/app.git', 'https://git.example.org:8443/team/app.git', 'https://git.example.org:8443'],
  ])('accepts %s', (raw, href, origin) => {
    expect(parseGitUrl(raw)).toEqual({ ok: true, value: { href, origin, host: new RegExp('//([^:/]+)').exec(origin)?.[1] } });
  });

  it.each([
    ['http://github.com/a/b', 'scheme'],
    ['git://github.com/a/b', 'scheme'],
    ['ssh://git@github.com/a/b', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['ext::sh -c touch% /tmp/pwned', 'not-a-url'],
    ['git@github.com:a/b.git', 'not-a-url'],
    ['https://user:token@github.com/a/b', 'credentials'],
    ['https://token@github.com/a/b', 'credentials'],
    ['https://localhost/a/b', 'private-host'],
    ['https://127.0.0.1/a/b', 'private-host'],
    ['https://10.0.0.5/a/b', 'private-host'],
    ['https://169.254.169.254/latest', 'private-host'],
    ['https://0x7f.1/a', 'private-host'],
    ['https://2130706433/a', 'private-host'],
    ['https://[::1]/a/b', 'private-host'],
    ['https://metadata.google.internal/a', 'private-host'],
    ['https://intranet/a', 'private-host'],
    ['https://github.com/a/b?x=1', 'query'],
    ['https://github.com/a/b#main', 'query'],
    ['https://github.com/', 'no-path'],
    ['https://github.com/a/../../b', 'not-a-url'],
    ['not a url', 'not-a-url'],
    [`https://github.com/${'a'.repeat(3000)}`, 'too-long'],
  ])('refuses %s (%s)', (raw, reason) => {
    const parsed = parseGitUrl(raw);
    expect(parsed).toMatchObject({ ok: false, error: { code: 'REPOSITORY.URL_REFUSED', reason } });
    if (!parsed.ok) expect(parsed.error.message).toMatch(/^Failed to setup repository: /);
  });

  it('allows a loopback http:// origin only when it is named explicitly (the test git server)', () => {
    expect(parseGitUrl('http://127.0.0.1:4555/repo.git')).toMatchObject({ ok: false });
    expect(parseGitUrl('http://127.0.0.1:4555/repo.git', { allowOrigins: ['http://127.0.0.1:4555'] })).toMatchObject({ ok: true, value: { origin: 'http://127.0.0.1:4555' } });
    expect(parseGitUrl('http://127.0.0.1:4556/repo.git', { allowOrigins: ['http://127.0.0.1:4555'] })).toMatchObject({ ok: false });
  });
});

class ScriptedImporter implements RepositoryImporter {
  readonly calls: GitUrl[] = [];
  failure: Error | null = null;
  constructor(private readonly host: InMemorySandboxHost) {}
  async importRepository(sandboxId: string, url: GitUrl) {
    this.calls.push(url);
    if (this.failure) throw this.failure;
    await this.host.writeFile(sandboxId, 'README.md', `# from ${url.href}\n`);
    return { files: 1, bytes: 10 };
  }
}

async function setUp() {
  const clock = new FixedClock();
  const projects = new InMemoryProjectRepository();
  await projects.insert(newProject({ id: PROJECT, creatorId: 'ana', name: 'Shop' }, clock.now()));
  const host = new InMemorySandboxHost(clock);
  await host.ensure(PROJECT);
  const importer = new ScriptedImporter(host);
  const lock = new InProcessTurnLock();
  const changed = new RecordedFilesChanged();
  const problems: ProblemLog & { lines: string[] } = { lines: [], warn(m: string) { this.lines.push(m); } };
  const setup = new SetupRepository(new OwnedProjects(projects, clock), importer, host, lock, changed, problems);
  return { host, importer, lock, changed, setup };
}

describe('SetupRepository', () => {
  it('imports under the turn lock, tells the builder and saves the version "Import <url>"', async () => {
    const { host, setup, changed } = await setUp();
    const result = await setup.execute('ana', PROJECT, 'https://github.com/acme/site');
    expect(result).toMatchObject({ ok: true, value: { files: 1, version: { success: true, message: 'Import https://github.com/acme/site' } } });
    expect(await host.readFile(PROJECT, 'README.md')).toContain('acme/site');
    expect(changed.of(PROJECT)).toEqual([{ paths: [], reason: 'restore' }]);
  });

  it("answers 'Failed to setup repository: {error}' for a refused URL (never reaching the importer) and a failed import", async () => {
    const { setup, importer } = await setUp();
    expect(await setup.execute('ana', PROJECT, 'http://github.com/acme/site')).toMatchObject({
      ok: false,
      error: { code: 'REPOSITORY.URL_REFUSED', message: 'Failed to setup repository: only https:// repository URLs are supported' },
    });
    expect(importer.calls).toEqual([]);
    importer.failure = new RepositoryImportError('the repository is larger than 50 MiB');
    expect(await setup.execute('ana', PROJECT, 'https://github.com/acme/huge')).toEqual({
      ok: false,
      error: { code: 'REPOSITORY.IMPORT_FAILED', message: 'Failed to setup repository: the repository is larger than 50 MiB' },
    });
  });

  it("someone else's project is PROJECTS.NOT_FOUND; a running turn makes it PROJECTS.BUSY; a host failure is thrown", async () => {
    const { setup, importer, lock } = await setUp();
    expect(await setup.execute('bob', PROJECT, 'https://github.com/acme/site')).toMatchObject({ ok: false, error: { code: 'PROJECTS.NOT_FOUND' } });
    let release!: () => void;
    const turn = lock.run(PROJECT, () => new Promise<void>((resolve) => (release = resolve)));
    expect(await setup.execute('ana', PROJECT, 'https://github.com/acme/site')).toMatchObject({ ok: false, error: { code: 'PROJECTS.BUSY' } });
    release();
    await turn;
    importer.failure = new Error('bubblewrap vanished');
    await expect(setup.execute('ana', PROJECT, 'https://github.com/acme/site')).rejects.toThrow('bubblewrap vanished');
  });
});

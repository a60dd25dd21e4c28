import { describe, expect, it } from '@jest/globals';
import { InProcessTurnLock } from '../ai/engine/project-turn-lock.js';
import { OwnedProjects } from '../projects/owned-projects.js';
import { newProject } from '../projects/project.entity.js';
import type { ProjectFileBytes } from '../sandbox/sandbox-file-actions.port.js';
import type { ProblemLog } from '../shared/problem-log.port.js';
import { FixedClock } from '../testing/fixed-clock.js';
import { InMemoryProjectRepository } from '../testing/in-memory-project-repository.js';
import { InMemorySandboxHost } from '../testing/in-memory-sandbox-host.js';
import { RecordedFilesChanged } from '../testing/recorded-files-changed.js';
import { isCleanedUp } from './clean-up.js';
import { EXPORT_EXCLUDES, ExportProject } from './export-project.use-case.js';
import { CleanUpProject, CreateProjectFile, CreateProjectFolder, DeleteProjectPath, type FileActionArgs, RenameProjectPath } from './file-actions.use-cases.js';
import { protectedNameIn } from './protected-paths.js';

const PROJECT = 'project-1';

class RecordedProblems implements ProblemLog {
  readonly lines: string[] = [];
  warn(message: string): void {
    this.lines.push(message);
  }
}

async function setUp() {
  const clock = new FixedClock();
  const projects = new InMemoryProjectRepository();
  await projects.insert(newProject({ id: PROJECT, creatorId: 'ana', name: 'Shop' }, clock.now()));
  const host = new InMemorySandboxHost(clock);
  await host.ensure(PROJECT);
  const lock = new InProcessTurnLock();
  const changed = new RecordedFilesChanged();
  const problems = new RecordedProblems();
  const owned = new OwnedProjects(projects, clock);
  const args: FileActionArgs = [owned, host, lock, changed, problems];
  const versions = async () => (await host.versionHistory(PROJECT)).map((v) => v.message);
  return { host, lock, changed, problems, owned, args, versions };
}

describe('file-tree actions', () => {
  it('new file, rename and delete each change the project once, tell the builder and save a version', async () => {
    const { host, args, changed, versions } = await setUp();
    expect(await new CreateProjectFile(...args).execute('ana', PROJECT, './src/Card.tsx')).toEqual({
      ok: true,
      value: { path: 'src/Card.tsx', version: { success: true, message: 'Create src/Card.tsx', hash: expect.any(String) } },
    });
    expect(await host.readFile(PROJECT, 'src/Card.tsx')).toBe('');
    const renamed = await new RenameProjectPath(...args).execute('ana', PROJECT, 'src/Card.tsx', 'src/ui/Card.tsx');
    expect(renamed.ok && renamed.value.path).toBe('src/ui/Card.tsx');
    const deleted = await new DeleteProjectPath(...args).execute('ana', PROJECT, 'src/ui');
    expect(deleted.ok && deleted.value.version.success).toBe(true);
    expect(await versions()).toEqual(['Delete src/ui', 'Rename src/Card.tsx to src/ui/Card.tsx', 'Create src/Card.tsx', 'Initial version']);
    expect(changed.of(PROJECT)).toEqual([
      { paths: ['src/Card.tsx'], reason: 'write' },
      { paths: ['src/Card.tsx', 'src/ui/Card.tsx'], reason: 'rename' },
      { paths: ['src/ui'], reason: 'delete' },
    ]);
  });

  it('a new empty folder is no version (git keeps files): success false, the folder is made', async () => {
    const { host, args } = await setUp();
    const made = await new CreateProjectFolder(...args).execute('ana', PROJECT, 'src/hooks');
    expect(made.ok && made.value.version.success).toBe(false);
    expect(await host.readDirectory(PROJECT, 'src/hooks')).toEqual([]);
  });

  it('refuses protected names, the root and paths outside the project before touching the sandbox', async () => {
    const { host, args, changed } = await setUp();
    const rename = new RenameProjectPath(...args);
    expect(await rename.execute('ana', PROJECT, 'src/App.tsx', 'node_modules/react/index.js')).toMatchObject({ ok: false, error: { code: 'SANDBOX.PATH_PROTECTED', name: 'node_modules' } });
    expect(await new DeleteProjectPath(...args).execute('ana', PROJECT, '.git')).toMatchObject({ ok: false, error: { code: 'SANDBOX.PATH_PROTECTED' } });
    expect(await new CreateProjectFile(...args).execute('ana', PROJECT, 'src/.git/hooks/pre-commit')).toMatchObject({ ok: false, error: { code: 'SANDBOX.PATH_PROTECTED' } });
    expect(await new DeleteProjectPath(...args).execute('ana', PROJECT, 'src/..')).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    expect(await rename.execute('ana', PROJECT, 'src', 'src/inner/src')).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    expect(await rename.execute('ana', PROJECT, 'src/App.tsx', './src/App.tsx')).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    expect(await rename.execute('ana', PROJECT, 'src/App.tsx', '../App.tsx')).toMatchObject({ ok: false, error: { code: 'SANDBOX.PATH_OUTSIDE' } });
    expect(await host.readFile(PROJECT, 'src/App.tsx')).toContain('Welcome');
    expect(changed.events).toEqual([]);
  });

  it("someone else's project is PROJECTS.NOT_FOUND, and a turn holding the lock makes an action PROJECTS.BUSY", async () => {
    const { args, lock } = await setUp();
    expect(await new DeleteProjectPath(...args).execute('bob', PROJECT, 'src/App.tsx')).toMatchObject({ ok: false, error: { code: 'PROJECTS.NOT_FOUND' } });
    let release!: () => void;
    const turn = lock.run(PROJECT, () => new Promise<void>((resolve) => (release = resolve)));
    expect(await new DeleteProjectPath(...args).execute('ana', PROJECT, 'src/App.tsx')).toMatchObject({ ok: false, error: { code: 'PROJECTS.BUSY' } });
    release();
    await turn;
    expect((await new DeleteProjectPath(...args).execute('ana', PROJECT, 'src/App.tsx')).ok).toBe(true);
  });

  it('a version that cannot be saved is success false; the change stays and the failure is logged', async () => {
    const { host, args, problems } = await setUp();
    host.saveVersion = () => Promise.reject(new Error('git is gone'));
    const made = await new CreateProjectFile(...args).execute('ana', PROJECT, 'notes.md');
    expect(made).toMatchObject({ ok: true, value: { version: { success: false } } });
    expect(await host.readFile(PROJECT, 'notes.md')).toBe('');
    expect(problems.lines.join('\n')).toContain('git is gone');
  });

  it('clean up removes top-level build output and caches only, then restarts the dev server', async () => {
    const { host, args, versions } = await setUp();
    for (const path of ['dist/index.js', '.cache/x', 'app.tsbuildinfo', 'src/dist/keep.ts', 'build/keep.txt']) await host.writeFile(PROJECT, path, 'x');
    const before = await versions();
    const cleaned = await new CleanUpProject(...args).execute('ana', PROJECT);
    expect(cleaned).toMatchObject({ ok: true, value: { removed: ['.cache', 'dist', 'app.tsbuildinfo'], state: { status: 'running' } } });
    expect(await host.readFile(PROJECT, 'src/dist/keep.ts')).toBe('x');
    expect(await host.readFile(PROJECT, 'build/keep.txt')).toBe('x');
    expect(await host.readFile(PROJECT, 'src/App.tsx')).toContain('Welcome');
    expect(await versions()).toEqual(before);
  });

  it('export gives the files without installed packages, caches or secrets, for the owner only', async () => {
    const { host, owned } = await setUp();
    await host.writeFile(PROJECT, '.env.local', 'DATABASE_URL=secret');
    await host.writeFile(PROJECT, 'node_modules/x/index.js', 'x');
    const exporter = new ExportProject(owned, host);
    expect(await exporter.execute('bob', PROJECT)).toMatchObject({ ok: false, error: { code: 'PROJECTS.NOT_FOUND' } });
    const result = await exporter.execute('ana', PROJECT);
    if (!result.ok) throw new Error('expected an export');
    const paths: string[] = [];
    for await (const file of result.value as AsyncIterable<ProjectFileBytes>) paths.push(file.path);
    expect(paths).toContain('src/App.tsx');
    expect(paths.filter((p) => p.includes('node_modules') || p.startsWith('.env'))).toEqual([]);
    expect(EXPORT_EXCLUDES).toEqual(expect.arrayContaining(['node_modules', '.git', '.env.local']));
  });
});

describe('file-action rules', () => {
  it.each([
    ['node_modules/react', 'node_modules'],
    ['src/.git/config', '.git'],
    ['.kiln-build/x', '.kiln-build'],
    ['src/node_modules_notes.md', null],
    ['src/git.ts', null],
  ])('protectedNameIn(%s) is %s', (path, name) => expect(protectedNameIn(path)).toBe(name));

  it.each([
    ['dist', true],
    ['.eslintcache', true],
    ['tsconfig.app.tsbuildinfo', true],
    ['src', false],
    ['build', false],
    ['.env.local', false],
    ['node_modules', false],
    ['package.json', false],
  ])('clean up removes %s: %s', (name, cleaned) => expect(isCleanedUp(name)).toBe(cleaned));
});

import { describe, expect, it } from '@jest/globals';
import { PlanCatalog } from '../../plans/plan-catalog.js';
import { OwnedProjects } from '../../projects/owned-projects.js';
import type { AbortSignalLike } from '../../shared/abort-signal.js';
import type { ProblemLog } from '../../shared/problem-log.port.js';
import { InMemorySandboxHost } from '../../testing/in-memory-sandbox-host.js';
import { RecordedFilesChanged } from '../../testing/recorded-files-changed.js';
import { createTestKit, signUp } from '../../testing/test-kit.js';
import type { CommandFeed } from '../command-feed.port.js';
import { ErrorScanUnavailable, UNEXPLAINED_SCAN_FAILURE, unavailableErrorScan } from '../error-scan.js';
import type { CommandResult, RunCommandOptions } from '../sandbox-commands.port.js';
import { SandboxMissing } from '../sandbox-missing.js';
import { CreateProjectDirectory, DeleteProjectFile, GetProjectTree, ReadProjectDirectory, ReadProjectFile, WriteProjectFile } from './project-files.use-cases.js';
import { InterruptProjectCommand, RunningCommands, RunProjectCommand } from './project-commands.use-cases.js';
import {
  DEV_SERVER_UNAVAILABLE,
  EnsureSandbox,
  FindProjectErrors,
  GetSandboxStatus,
  NO_SANDBOX_YET,
  RemoveSandbox,
  RestartDevServer,
} from './project-sandbox.use-cases.js';
import {
  ListProjectVersions,
  RESTORE_FILE_FAILED,
  RESTORE_VERSION_FAILED,
  RestoreProjectFile,
  RestoreProjectVersion,
  SAVE_VERSION_FAILED,
  SaveProjectVersion,
} from './project-versions.use-cases.js';

class RecordedProblems implements ProblemLog {
  readonly lines: string[] = [];
  warn(message: string): void {
    this.lines.push(message);
  }
}

class RecordedFeed implements CommandFeed {
  readonly events: string[] = [];
  output(_projectId: string, commandId: string, stream: 'stdout' | 'stderr', text: string): void {
    this.events.push(`${commandId} ${stream} ${text}`);
  }
  exited(_projectId: string, commandId: string, result: CommandResult): void {
    this.events.push(`${commandId} exit ${result.exitCode}`);
  }
}

/** A host whose commands print a line and then wait for their signal (or end at once). */
class TalkativeHost extends InMemorySandboxHost {
  override async runCommand(sandboxId: string, command: string | readonly string[], options: RunCommandOptions = {}): Promise<CommandResult> {
    await super.runCommand(sandboxId, command, options);
    options.onOutput?.('stdout', 'hello\n');
    if (command !== 'wait') return { exitCode: 0, stdout: 'hello\n', stderr: '', timedOut: false, outputTruncated: false };
    const signal = options.signal;
    await new Promise<void>((resolve) => {
      if (signal === undefined || signal.aborted) return resolve();
      signal.addEventListener('abort', () => resolve());
    });
    return { exitCode: 130, stdout: 'hello\n', stderr: '', timedOut: false, outputTruncated: false, interrupted: true };
  }
}

/** Lets the pending run reach the host (a few turns of the microtask queue). */
async function settled(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/** The caller's side of a request: it goes away (the domain has no AbortController). */
class CallerSignal implements AbortSignalLike {
  aborted = false;
  private readonly listeners: (() => void)[] = [];
  addEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.push(listener);
  }
  removeEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.splice(this.listeners.indexOf(listener), 1);
  }
  abort(): void {
    this.aborted = true;
    for (const listener of [...this.listeners]) listener();
  }
}

async function setUp() {
  const kit = createTestKit({ plans: PlanCatalog.standard() });
  await signUp(kit, 'ana');
  await signUp(kit, 'bob');
  const owned = new OwnedProjects(kit.projects, kit.clock);
  const created = await kit.createProject.execute({ creatorId: 'ana', name: 'Shop' });
  if (!created.ok) throw new Error('setup');
  const host = new TalkativeHost(kit.clock);
  const changes = new RecordedFilesChanged();
  const problems = new RecordedProblems();
  const feed = new RecordedFeed();
  const running = new RunningCommands();
  const id = created.value.id;
  return { kit, owned, host, changes, problems, feed, running, id };
}

const notFound = (id: string) => ({ ok: false, error: { code: 'PROJECTS.NOT_FOUND', message: `Record with id ${id} not found` } });

describe('sandbox use cases', () => {
  it('ensure creates the sandbox once, indexes it once and answers the dev server state', async () => {
    const { owned, host, changes, problems, id } = await setUp();
    const ensure = new EnsureSandbox(owned, host, changes, problems);
    const first = await ensure.execute('ana', id);
    expect(first.ok && first.value.info.machineCreated).toBe(true);
    expect(first.ok && first.value.state.status).toBe('running');
    const second = await ensure.execute('ana', id);
    expect(second.ok && second.value.info.machineCreated).toBe(false);
    expect(changes.of(id)).toEqual(['created']);
    expect(await ensure.execute('bob', id)).toEqual(notFound(id));
  });

  it('writes, reads, lists and deletes files at normalised paths, reporting each change', async () => {
    const { owned, host, changes, id } = await setUp();
    await host.ensure(id);
    const write = new WriteProjectFile(owned, host, changes);
    expect(await write.execute('ana', id, './src//a.ts', 'export {}')).toEqual({ ok: true, value: 'src/a.ts' });
    expect(await new ReadProjectFile(owned, host).execute('ana', id, 'src/a.ts')).toEqual({ ok: true, value: { path: 'src/a.ts', value: 'export {}' } });
    const listed = await new ReadProjectDirectory(owned, host).execute('ana', id, 'src', { includeContents: true });
    expect(listed.ok && listed.value.value.find((e) => e.name === 'a.ts')).toEqual({ name: 'a.ts', type: 'file', content: 'export {}' });
    const tree = await new GetProjectTree(owned, host).execute('ana', id, '.');
    expect(tree.ok && tree.value.value.some((e) => e.path === 'src')).toBe(true);
    expect(await new CreateProjectDirectory(owned, host, changes).execute('ana', id, 'src/lib')).toEqual({ ok: true, value: 'src/lib' });
    expect(await new DeleteProjectFile(owned, host, changes).execute('ana', id, 'src/a.ts')).toEqual({ ok: true, value: 'src/a.ts' });
    expect(changes.of(id)).toEqual([
      { paths: ['src/a.ts'], reason: 'write' },
      { paths: ['src/lib'], reason: 'create-directory' },
      { paths: ['src/a.ts'], reason: 'delete' },
    ]);
  });

  it('refuses a path outside the project, the root where a file is meant, and another user, touching nothing', async () => {
    const { owned, host, changes, id } = await setUp();
    await host.ensure(id);
    const write = new WriteProjectFile(owned, host, changes);
    const outside = await write.execute('ana', id, '../etc/passwd', 'x');
    expect(!outside.ok && outside.error.code).toBe('SANDBOX.PATH_OUTSIDE');
    expect(await write.execute('ana', id, '.', 'x')).toEqual({ ok: false, error: { code: 'VALIDATION_FAILED', message: 'path: must name a file, not the project root' } });
    expect(await new DeleteProjectFile(owned, host, changes).execute('ana', id, './')).toEqual({
      ok: false,
      error: { code: 'VALIDATION_FAILED', message: 'path: cannot be the project root (use cleanup)' },
    });
    expect(await write.execute('bob', id, 'src/a.ts', 'x')).toEqual(notFound(id));
    expect(await new ReadProjectFile(owned, host).execute('bob', id, 'package.json')).toEqual(notFound(id));
    expect(changes.of(id)).toEqual([]);
    await expect(host.readFile(id, 'src/a.ts')).rejects.toThrow();
  });

  it('throws what the host throws (a missing file, no sandbox) for the API to map', async () => {
    const { owned, host, id } = await setUp();
    await expect(new ReadProjectFile(owned, host).execute('ana', id, 'x.ts')).rejects.toBeInstanceOf(SandboxMissing);
    await host.ensure(id);
    await expect(new ReadProjectFile(owned, host).execute('ana', id, 'missing.ts')).rejects.toThrow();
  });

  it('streams a named command, tells the end, and reports that anything may have changed', async () => {
    const { owned, host, changes, feed, running, id } = await setUp();
    await host.ensure(id);
    const run = new RunProjectCommand(owned, host, running, feed, changes);
    const result = await run.execute({ userId: 'ana', projectId: id, command: 'echo', commandId: 'c1' });
    expect(result.ok && result.value.exitCode).toBe(0);
    expect(feed.events).toEqual(['c1 stdout hello\n', 'c1 exit 0']);
    expect(changes.of(id)).toEqual([{ paths: [], reason: 'command' }]);
    expect(running.size).toBe(0);
    // An unnamed run streams nothing.
    await run.execute({ userId: 'ana', projectId: id, command: 'echo' });
    expect(feed.events).toHaveLength(2);
  });

  it('interrupts a named run of the same project only, and forgets it when it ends', async () => {
    const { owned, host, changes, feed, running, id } = await setUp();
    await host.ensure(id);
    const run = new RunProjectCommand(owned, host, running, feed, changes);
    const interrupt = new InterruptProjectCommand(owned, running);
    const pending = run.execute({ userId: 'ana', projectId: id, command: 'wait', commandId: 'c2' });
    await settled();
    expect(await interrupt.execute('ana', id, 'other')).toEqual({ ok: true, value: false });
    expect(await interrupt.execute('bob', id, 'c2')).toEqual(notFound(id));
    expect(await interrupt.execute('ana', id, 'c2')).toEqual({ ok: true, value: true });
    const result = await pending;
    expect(result.ok && result.value).toMatchObject({ exitCode: 130, interrupted: true });
    expect(await interrupt.execute('ana', id, 'c2')).toEqual({ ok: true, value: false });
    expect(feed.events.at(-1)).toBe('c2 exit 130');
  });

  it('stops a run when the caller goes away, and refuses a working folder outside the project', async () => {
    const { owned, host, changes, feed, running, id } = await setUp();
    await host.ensure(id);
    const run = new RunProjectCommand(owned, host, running, feed, changes);
    const gone = new CallerSignal();
    const pending = run.execute({ userId: 'ana', projectId: id, command: 'wait', commandId: 'c3', signal: gone });
    await settled();
    gone.abort();
    const result = await pending;
    expect(result.ok && result.value.interrupted).toBe(true);
    const outside = await run.execute({ userId: 'ana', projectId: id, command: 'echo', workingDir: '../..' });
    expect(!outside.ok && outside.error.code).toBe('SANDBOX.PATH_OUTSIDE');
  });

  it('saves, lists and restores versions; restoring reports a change', async () => {
    const { owned, host, changes, problems, id } = await setUp();
    await host.ensure(id);
    await host.writeFile(id, 'a.txt', 'one');
    const save = new SaveProjectVersion(owned, host, problems);
    const saved = await save.execute('ana', id, 'First');
    expect(saved.ok && saved.value.success).toBe(true);
    const history = await new ListProjectVersions(owned, host, problems).execute('ana', id);
    const hash = history.ok ? history.value[0]?.hash : undefined;
    expect(hash).toBeDefined();
    await host.writeFile(id, 'a.txt', 'two');
    const restored = await new RestoreProjectVersion(owned, host, changes, problems).execute('ana', id, (hash ?? '').toUpperCase());
    expect(restored.ok && restored.value.success).toBe(true);
    expect(await host.readFile(id, 'a.txt')).toBe('one');
    expect(changes.of(id)).toEqual([{ paths: [], reason: 'restore' }]);
    expect(problems.lines).toEqual([]);
  });

  it('undoes one file of a version (issue #14): the path rule first, then a new version and a change of that path', async () => {
    const { owned, host, changes, problems, id } = await setUp();
    await host.ensure(id);
    await host.writeFile(id, 'src/a.ts', 'one');
    await host.saveVersion(id, 'First');
    await host.writeFile(id, 'src/a.ts', 'two');
    await host.writeFile(id, 'src/b.ts', 'added');
    const second = await host.saveVersion(id, 'Second');
    const undo = new RestoreProjectFile(owned, host, changes, problems);

    const undone = await undo.execute('ana', id, { hash: (second.hash ?? '').toUpperCase(), path: './src//a.ts' });
    expect(undone).toEqual({ ok: true, value: expect.objectContaining({ success: true, hash: expect.any(String) }) });
    expect(await host.readFile(id, 'src/a.ts')).toBe('one');
    expect(await host.readFile(id, 'src/b.ts')).toBe('added');
    expect(changes.of(id)).toEqual([{ paths: ['src/a.ts'], reason: 'restore' }]);

    for (const path of ['../outside.ts', '/etc/passwd', 'src/%2e%2e/x']) {
      expect(await undo.execute('ana', id, { hash: second.hash ?? '', path })).toMatchObject({ ok: false, error: { code: 'SANDBOX.PATH_OUTSIDE' } });
    }
    expect(await undo.execute('ana', id, { hash: second.hash ?? '', path: '.' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    expect(await undo.execute('bob', id, { hash: second.hash ?? '', path: 'src/a.ts' })).toMatchObject({ ok: false, error: { code: 'PROJECTS.NOT_FOUND' } });
    const broken = Object.assign(Object.create(host) as InMemorySandboxHost, { restoreFile: () => Promise.reject(new Error('disk on fire')) });
    expect(await new RestoreProjectFile(owned, broken, changes, problems).execute('ana', id, { hash: 'abc', path: 'src/a.ts' })).toEqual({
      ok: true,
      value: { success: false, message: RESTORE_FILE_FAILED },
    });
    expect(problems.lines).toEqual([expect.stringContaining('disk on fire')]);
    expect(changes.of(id)).toHaveLength(1);
  });

  it('applies the SPEC §8 fallbacks, logging each, but never hides a missing sandbox or another user', async () => {
    const { owned, host, changes, problems, id } = await setUp();
    const broken = Object.assign(Object.create(host) as InMemorySandboxHost, {
      saveVersion: () => Promise.reject(new Error('disk on fire')),
      restoreVersion: () => Promise.reject(new Error('disk on fire')),
      versionHistory: () => Promise.reject(new Error('git is gone')),
      findErrors: () => Promise.reject(new Error('no compiler')),
      devServer: () => Promise.reject(new Error('host unreachable')),
    });
    expect(await new SaveProjectVersion(owned, broken, problems).execute('ana', id, 'x')).toEqual({ ok: true, value: { success: false, message: SAVE_VERSION_FAILED } });
    expect(await new RestoreProjectVersion(owned, broken, changes, problems).execute('ana', id, 'abc')).toEqual({
      ok: true,
      value: { success: false, message: RESTORE_VERSION_FAILED },
    });
    expect(await new ListProjectVersions(owned, broken, problems).execute('ana', id)).toEqual({ ok: true, value: [] });
    // Zero counts on the wire (SPEC §8), but never "no problems": not checked, with a reason safe to show.
    expect(await new FindProjectErrors(owned, broken, problems).execute('ana', id)).toEqual({ ok: true, value: unavailableErrorScan(UNEXPLAINED_SCAN_FAILURE) });
    expect(await new GetSandboxStatus(owned, broken, problems).execute('ana', id, 'reject')).toEqual({ ok: true, value: DEV_SERVER_UNAVAILABLE });
    expect(problems.lines).toHaveLength(5);
    expect(problems.lines[0]).toContain('disk on fire');
    expect(changes.of(id)).toEqual([]);
    // No sandbox yet: thrown (SANDBOX.NOT_FOUND) or shown as stopped, as asked.
    await expect(new ListProjectVersions(owned, host, problems).execute('ana', id)).rejects.toBeInstanceOf(SandboxMissing);
    await expect(new FindProjectErrors(owned, host, problems).execute('ana', id)).rejects.toBeInstanceOf(SandboxMissing);
    await expect(new GetSandboxStatus(owned, host, problems).execute('ana', id, 'reject')).rejects.toBeInstanceOf(SandboxMissing);
    expect(await new GetSandboxStatus(owned, host, problems).execute('ana', id, 'stopped')).toEqual({ ok: true, value: NO_SANDBOX_YET });
    expect(await new FindProjectErrors(owned, broken, problems).execute('bob', id)).toEqual(notFound(id));
  });

  it("find-errors that cannot run says so with the host's reason (its detail only in the log)", async () => {
    const { owned, host, problems, id } = await setUp();
    await host.ensure(id);
    const timedOut = Object.assign(Object.create(host) as InMemorySandboxHost, {
      findErrors: () => Promise.reject(new ErrorScanUnavailable('Type-checking did not finish within 60 s.', 'tsc at /srv/data/p/node_modules')),
    });
    const answer = await new FindProjectErrors(owned, timedOut, problems).execute('ana', id);
    expect(answer).toEqual({ ok: true, value: { errors: [], errorCount: 0, warningCount: 0, unavailableReason: 'Type-checking did not finish within 60 s.' } });
    expect(problems.lines[0]).toContain('/srv/data/p/node_modules');
    // A check that ran is no "unavailable".
    host.scriptErrors(id, []);
    const ran = await new FindProjectErrors(owned, host, problems).execute('ana', id);
    expect(ran.ok && ran.value.unavailableReason).toBeUndefined();
  });

  it('restarts the dev server and removes the sandbox, reporting the removal', async () => {
    const { owned, host, changes, problems, id } = await setUp();
    await host.ensure(id);
    const restarted = await new RestartDevServer(owned, host, problems).execute('ana', id);
    expect(restarted.ok && restarted.value.status).toBe('running');
    expect(await new RemoveSandbox(owned, host, changes).execute('bob', id)).toEqual(notFound(id));
    expect(await new RemoveSandbox(owned, host, changes).execute('ana', id)).toEqual({ ok: true, value: undefined });
    expect(changes.of(id)).toEqual(['removed']);
    await expect(host.readFile(id, 'package.json')).rejects.toBeInstanceOf(SandboxMissing);
  });
});

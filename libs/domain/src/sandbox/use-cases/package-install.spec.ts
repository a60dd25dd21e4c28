import { describe, expect, it } from '@jest/globals';
import { PlanCatalog } from '../../plans/plan-catalog.js';
import { OwnedProjects } from '../../projects/owned-projects.js';
import { InMemorySandboxHost } from '../../testing/in-memory-sandbox-host.js';
import { RecordedFilesChanged } from '../../testing/recorded-files-changed.js';
import { createTestKit, signUp } from '../../testing/test-kit.js';
import type { CommandFeed } from '../command-feed.port.js';
import type { CommandResult, RunCommandOptions, SandboxCommand } from '../sandbox-commands.port.js';
import { RunningCommands, RunProjectCommand } from './project-commands.use-cases.js';

class RecordedFeed implements CommandFeed {
  readonly lines: string[] = [];
  readonly exits: number[] = [];
  output(_projectId: string, _commandId: string, stream: 'stdout' | 'stderr', text: string): void {
    this.lines.push(`${stream}: ${text.trimEnd()}`);
  }
  exited(_projectId: string, _commandId: string, result: CommandResult): void {
    this.exits.push(result.exitCode);
  }
}

/** The in-memory host, remembering every command it was asked to run (none should be npm). */
class WatchedHost extends InMemorySandboxHost {
  readonly commandsRun: string[] = [];
  override async runCommand(sandboxId: string, command: SandboxCommand, options?: RunCommandOptions): Promise<CommandResult> {
    this.commandsRun.push(typeof command === 'string' ? command : command.join(' '));
    return super.runCommand(sandboxId, command, options);
  }
}

async function setUp() {
  const kit = createTestKit({ plans: PlanCatalog.standard() });
  await signUp(kit, 'ana');
  const created = await kit.createProject.execute({ creatorId: 'ana', name: 'Shop' });
  if (!created.ok) throw new Error('setup');
  const id = created.value.id;
  const host = new WatchedHost(kit.clock);
  await host.ensure(id);
  const feed = new RecordedFeed();
  const changes = new RecordedFilesChanged();
  const run = new RunProjectCommand(new OwnedProjects(kit.projects, kit.clock), host, new RunningCommands(), feed, changes);
  const terminal = async (command: string, workingDir?: string) => {
    const answer = await run.execute({ userId: 'ana', projectId: id, command, commandId: 'c1', ...(workingDir ? { workingDir } : {}) });
    if (!answer.ok) throw new Error(answer.error.code);
    return answer.value;
  };
  const manifest = async () => JSON.parse(await host.readFile(id, 'package.json')) as Record<string, unknown>;
  return { id, host, feed, changes, terminal, manifest };
}

describe('RunProjectCommand: package installs from the terminal', () => {
  it('npm install <pkg> changes package.json and installs through the host, never running npm', async () => {
    const { id, host, feed, changes, terminal, manifest } = await setUp();
    const result = await terminal('npm install dayjs@^1.11.0');
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(await manifest()).toMatchObject({ name: 'kiln-starter', dependencies: { dayjs: '^1.11.0' } });
    expect(host.installCount).toBe(1);
    expect(host.commandsRun).toEqual([]);
    // Progress went to the terminal as it happened, then the exit.
    expect(feed.lines).toEqual([
      'stdout: Adding dayjs@^1.11.0 to package.json (dependencies)',
      'stdout: Installing in memory',
      'stdout: Done: node_modules has the packages in package.json.',
    ]);
    expect(feed.exits).toEqual([0]);
    expect(result.stdout).toContain('Done');
    expect(changes.of(id)).toEqual([{ paths: [], reason: 'command' }]);

    // The same again is up to date; a dev dependency moves; uninstall removes.
    expect((await terminal('npm i dayjs@^1.11.0')).stdout).toContain('Up to date');
    await terminal('npm i -D dayjs@^1.11.0');
    expect(await manifest()).toMatchObject({ dependencies: {}, devDependencies: { dayjs: '^1.11.0' } });
    await terminal('npm uninstall dayjs');
    expect(await manifest()).toMatchObject({ dependencies: {}, devDependencies: {} });
    expect(host.commandsRun).toEqual([]);
  });

  it('a bare npm install / npm ci installs package.json as it is', async () => {
    const { host, terminal } = await setUp();
    expect(await terminal('npm ci')).toMatchObject({ exitCode: 0, stdout: expect.stringContaining('Up to date') });
    expect(host.installCount).toBe(0);
  });

  it('an install that fails puts package.json back: the project keeps working on its packages', async () => {
    const { host, feed, terminal, manifest } = await setUp();
    const before = await manifest();
    host.installFailure = 'Installing the packages in package.json failed: npm error 404 Not Found - GET https://registry.npmjs.org/no-such-pkg';
    const result = await terminal('npm install no-such-pkg');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('404 Not Found');
    expect(result.stderr).toContain('package.json was put back');
    expect(await manifest()).toEqual(before);
    expect(feed.exits).toEqual([1]);
  });

  it('refuses what would rewrite node_modules, and specs that are not registry packages, changing nothing', async () => {
    const { host, feed, terminal, manifest } = await setUp();
    const before = await manifest();
    for (const line of ['npm update', 'npm install -g x', 'npm i github:a/b', 'npm i x && npm run build']) {
      const result = await terminal(line);
      expect([line, result.exitCode]).toEqual([line, 1]);
      expect(result.stderr).toContain('npm install <name>');
    }
    expect(await manifest()).toEqual(before);
    expect(host.installCount).toBe(0);
    expect(host.commandsRun).toEqual([]);
    expect(feed.exits).toEqual([1, 1, 1, 1]);
  });

  it('installs only from the project root; other commands still run as commands', async () => {
    const { host, terminal } = await setUp();
    expect((await terminal('npm install dayjs', 'src')).stderr).toContain('from the project root');
    await terminal('ls');
    await terminal('npm run build');
    expect(host.commandsRun).toEqual(['ls', 'npm run build']);
  });
});

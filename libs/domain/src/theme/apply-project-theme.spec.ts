import { describe, expect, it } from '@jest/globals';
import { InProcessTurnLock } from '../ai/engine/project-turn-lock.js';
import { OwnedProjects } from '../projects/owned-projects.js';
import { newProject } from '../projects/project.entity.js';
import { SandboxMissing } from '../sandbox/sandbox-missing.js';
import type { SaveVersionResult } from '../sandbox/sandbox-versions.port.js';
import { SAVE_VERSION_FAILED } from '../sandbox/use-cases/project-versions.use-cases.js';
import type { ProblemLog } from '../shared/problem-log.port.js';
import { FixedClock } from '../testing/fixed-clock.js';
import { InMemoryProjectRepository } from '../testing/in-memory-project-repository.js';
import { InMemorySandboxHost } from '../testing/in-memory-sandbox-host.js';
import { RecordedFilesChanged } from '../testing/recorded-files-changed.js';
import { ApplyProjectTheme, THEME_STYLESHEET_PATH } from './apply-project-theme.use-case.js';
import { bracesBalanced, mergeTheme, THEME_PRESETS, type Theme } from './theme.js';

const STYLESHEET = `@import 'tailwindcss';\n\n:root {\n  --primary: oklch(0.205 0 0);\n}\n\n.dark {\n  --primary: oklch(0.922 0 0);\n}\n`;
const ocean = THEME_PRESETS.find((t) => t.name === 'Ocean') as Theme;
const PROJECT = 'project-1';

type SandboxMethod = 'readFile' | 'writeFile' | 'saveVersion';

/** The in-memory host as the use case sees it, recording each call; a test scripts a failure or a pause per method. */
class RecordingSandbox {
  readonly calls: string[] = [];
  readonly failures = new Map<SandboxMethod, Error>();
  /** While set, readFile waits for it (a theme caught holding the lock). */
  holdRead: Promise<void> | null = null;
  constructor(readonly host: InMemorySandboxHost) {}

  private async call(method: SandboxMethod, detail: string): Promise<void> {
    this.calls.push(`${method} ${detail}`);
    const failure = this.failures.get(method);
    if (failure) throw failure;
  }
  async readFile(id: string, path: string): Promise<string> {
    await this.call('readFile', path);
    if (this.holdRead) await this.holdRead;
    return this.host.readFile(id, path);
  }
  async writeFile(id: string, path: string, content: string): Promise<void> {
    await this.call('writeFile', path);
    return this.host.writeFile(id, path, content);
  }
  async saveVersion(id: string, message: string): Promise<SaveVersionResult> {
    await this.call('saveVersion', message);
    return this.host.saveVersion(id, message);
  }
}

class RecordedProblems implements ProblemLog {
  readonly lines: string[] = [];
  warn(message: string): void {
    this.lines.push(message);
  }
}

function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

async function setUp(stylesheet: string | null = STYLESHEET) {
  const clock = new FixedClock();
  const projects = new InMemoryProjectRepository();
  await projects.insert(newProject({ id: PROJECT, creatorId: 'ana', name: 'Shop' }, clock.now()));
  const host = new InMemorySandboxHost(clock);
  await host.ensure(PROJECT);
  if (stylesheet !== null) {
    await host.writeFile(PROJECT, THEME_STYLESHEET_PATH, stylesheet);
    await host.saveVersion(PROJECT, 'Add the stylesheet');
  }
  const sandbox = new RecordingSandbox(host);
  const lock = new InProcessTurnLock();
  const filesChanged = new RecordedFilesChanged();
  const problems = new RecordedProblems();
  const applyTheme = new ApplyProjectTheme(new OwnedProjects(projects, clock), sandbox, lock, filesChanged, problems);
  const versions = async () => (await host.versionHistory(PROJECT)).map((v) => v.message);
  const css = () => host.readFile(PROJECT, THEME_STYLESHEET_PATH);
  return { host, sandbox, lock, filesChanged, problems, applyTheme, versions, css, projects, clock };
}

describe('ApplyProjectTheme', () => {
  it('applied: merges the theme into src/index.css, reports the change and saves the version "Apply theme <name>"', async () => {
    const { applyTheme, sandbox, filesChanged, versions, css, host, lock } = await setUp();
    const result = await applyTheme.execute('ana', PROJECT, ocean);
    expect(result).toEqual({
      ok: true,
      value: { outcome: 'applied', themeName: 'Ocean', version: { success: true, message: 'Apply theme Ocean', hash: expect.any(String) } },
    });
    const written = await css();
    expect(written).toBe(mergeTheme(STYLESHEET, ocean).stylesheet);
    expect(written).toContain(`--primary: ${ocean.light['primary']};`);
    expect(written).toContain(`--primary: ${ocean.dark['primary']};`);
    expect(written).toContain("@import url('https://fonts.googleapis.com/css2?family=Inter");
    expect(bracesBalanced(written)).toBe(true);
    expect(sandbox.calls).toEqual(['readFile src/index.css', 'writeFile src/index.css', 'saveVersion Apply theme Ocean']);
    expect(filesChanged.events).toEqual([{ projectId: PROJECT, change: { paths: ['src/index.css'], reason: 'write' } }]);
    expect(await versions()).toEqual(['Apply theme Ocean', 'Add the stylesheet', 'Initial version']);
    const [saved] = await host.versionHistory(PROJECT);
    expect(saved?.filesChanged).toEqual(['src/index.css']);
    expect(lock.busyProjects).toBe(0);
  });

  it('unchanged: a theme already applied writes nothing, reports nothing and saves no version', async () => {
    const { applyTheme, sandbox, filesChanged, versions, css } = await setUp();
    await applyTheme.execute('ana', PROJECT, ocean);
    const once = await css();
    sandbox.calls.length = 0;
    filesChanged.events.length = 0;
    const again = await applyTheme.execute('ana', PROJECT, ocean);
    expect(again).toEqual({ ok: true, value: { outcome: 'unchanged', themeName: 'Ocean' } });
    expect(sandbox.calls).toEqual(['readFile src/index.css']);
    expect(filesChanged.events).toEqual([]);
    expect(await css()).toBe(once);
    expect(await versions()).toEqual(['Apply theme Ocean', 'Add the stylesheet', 'Initial version']);
  });

  it('kept-original: unbalanced braces leave the stylesheet as it was (SPEC §5), nothing written or saved', async () => {
    const broken = ':root {\n  --primary: red;\n';
    const { applyTheme, sandbox, filesChanged, versions, css } = await setUp(broken);
    const result = await applyTheme.execute('ana', PROJECT, ocean);
    expect(result).toEqual({ ok: true, value: { outcome: 'kept-original', themeName: 'Ocean' } });
    expect(sandbox.calls).toEqual(['readFile src/index.css']);
    expect(filesChanged.events).toEqual([]);
    expect(await css()).toBe(broken);
    expect(await versions()).toEqual(['Add the stylesheet', 'Initial version']);
  });

  it("another user's, a deleted or an unknown project is PROJECTS.NOT_FOUND, and the sandbox is not touched", async () => {
    const { applyTheme, sandbox, projects, clock, filesChanged } = await setUp();
    const notFound = { ok: false, error: { code: 'PROJECTS.NOT_FOUND', message: `Record with id ${PROJECT} not found` } };
    expect(await applyTheme.execute('bob', PROJECT, ocean)).toEqual(notFound);
    expect(await applyTheme.execute('ana', 'project-2', ocean)).toMatchObject({ ok: false, error: { code: 'PROJECTS.NOT_FOUND' } });
    const project = await projects.findById(PROJECT);
    await projects.update({ ...project!, status: 'deleted', updatedAt: clock.now() });
    expect(await applyTheme.execute('ana', PROJECT, ocean)).toEqual(notFound);
    expect(sandbox.calls).toEqual([]);
    expect(filesChanged.events).toEqual([]);
  });

  it('refuses a theme parseTheme refuses (VALIDATION_FAILED), before taking the lock or reading anything', async () => {
    const { applyTheme, sandbox } = await setUp();
    for (const theme of [{ ...ocean, light: { primary: 'red; } body { x: y' } }, { ...ocean, name: '' }, 'Ocean', null, { ...ocean, fonts: ["https://x.com/a.css') ; @import url('evil"] }]) {
      const result = await applyTheme.execute('ana', PROJECT, theme);
      expect(result).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED', message: expect.stringMatching(/^theme: /) } });
    }
    expect(sandbox.calls).toEqual([]);
  });

  it('while a turn holds the project it is PROJECTS.BUSY at once, nothing read or written; after the turn it applies', async () => {
    const { applyTheme, sandbox, lock, css, versions, filesChanged } = await setUp();
    const started = gate();
    const release = gate();
    const turn = lock.run(PROJECT, async () => {
      started.open();
      await release.opened;
    });
    await started.opened;
    const busy = await applyTheme.execute('ana', PROJECT, ocean);
    expect(busy).toEqual({
      ok: false,
      error: { code: 'PROJECTS.BUSY', message: 'This project is being changed right now (the assistant is working on it). Try again when it has finished.' },
    });
    expect(sandbox.calls).toEqual([]);
    expect(filesChanged.events).toEqual([]);
    expect(await css()).toBe(STYLESHEET);
    expect(await versions()).toEqual(['Add the stylesheet', 'Initial version']);
    release.open();
    await turn;
    expect(await applyTheme.execute('ana', PROJECT, ocean)).toMatchObject({ ok: true, value: { outcome: 'applied' } });
  });

  it('holds the lock while it works: a turn asked meanwhile starts after the theme is saved, a second theme is busy', async () => {
    const { applyTheme, sandbox, lock } = await setUp();
    const hold = gate();
    sandbox.holdRead = hold.opened;
    const applying = applyTheme.execute('ana', PROJECT, ocean);
    for (let i = 0; i < 10 && sandbox.calls.length === 0; i += 1) await Promise.resolve();
    expect(sandbox.calls).toEqual(['readFile src/index.css']);
    const turn = lock.run(PROJECT, async () => [...sandbox.calls]);
    const second = await applyTheme.execute('ana', PROJECT, THEME_PRESETS[0]);
    expect(second).toMatchObject({ ok: false, error: { code: 'PROJECTS.BUSY' } });
    hold.open();
    expect(await applying).toMatchObject({ ok: true, value: { outcome: 'applied' } });
    expect(await turn).toEqual(['readFile src/index.css', 'writeFile src/index.css', 'saveVersion Apply theme Ocean']);
  });

  it('rethrows the host failures (no stylesheet, no sandbox, a failed write) and releases the lock after each', async () => {
    const missing = await setUp(null);
    await expect(missing.applyTheme.execute('ana', PROJECT, ocean)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(missing.lock.busyProjects).toBe(0);
    await missing.host.cleanup(PROJECT);
    await expect(missing.applyTheme.execute('ana', PROJECT, ocean)).rejects.toBeInstanceOf(SandboxMissing);
    expect(missing.lock.busyProjects).toBe(0);

    const { applyTheme, sandbox, filesChanged, lock, css, versions } = await setUp();
    sandbox.failures.set('writeFile', new Error('disk full'));
    await expect(applyTheme.execute('ana', PROJECT, ocean)).rejects.toThrow('disk full');
    expect(sandbox.calls).toEqual(['readFile src/index.css', 'writeFile src/index.css']);
    expect(filesChanged.events).toEqual([]);
    expect(await css()).toBe(STYLESHEET);
    expect(await versions()).toEqual(['Add the stylesheet', 'Initial version']);
    expect(lock.busyProjects).toBe(0);
    // Released: the next application and the next turn run.
    sandbox.failures.clear();
    expect(await applyTheme.execute('ana', PROJECT, ocean)).toMatchObject({ ok: true, value: { outcome: 'applied' } });
    await expect(lock.tryRun(PROJECT, async () => 'turn')).resolves.toEqual({ ran: true, value: 'turn' });
  });

  it('a version that cannot be saved leaves the theme applied and says so (SPEC §8: success false)', async () => {
    const { applyTheme, sandbox, filesChanged, problems, css, lock } = await setUp();
    sandbox.failures.set('saveVersion', new Error('git: index.lock exists in /srv/kiln/projects/x'));
    const result = await applyTheme.execute('ana', PROJECT, ocean);
    expect(result).toEqual({ ok: true, value: { outcome: 'applied', themeName: 'Ocean', version: { success: false, message: SAVE_VERSION_FAILED } } });
    expect(problems.lines).toEqual([`Saving the theme's version of ${PROJECT} failed: git: index.lock exists in /srv/kiln/projects/x`]);
    expect(await css()).toBe(mergeTheme(STYLESHEET, ocean).stylesheet);
    expect(filesChanged.events).toEqual([{ projectId: PROJECT, change: { paths: ['src/index.css'], reason: 'write' } }]);
    expect(lock.busyProjects).toBe(0);
  });
});

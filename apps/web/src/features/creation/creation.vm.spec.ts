import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { ApiError, HOME_PROMPT_KEY, type SavedPrompts } from '../../app/ports';
import type { ProjectDto, ProjectsApi } from '../../api/projects.api';
import { SandboxSetup } from '../builder/sandbox-setup';
import { FakeSandboxApi, FakeUrlProbe } from '../builder/builder.fakes';
import { RecordingLogger } from '../../testing/ui-fakes';
import { CreationVm, projectNameFrom } from './creation.vm';

class MemoryPrompts implements SavedPrompts {
  readonly map = new Map<string, string>();
  get(key: string) {
    return this.map.get(key) ?? null;
  }
  set(key: string, prompt: string) {
    this.map.set(key, prompt);
  }
  remove(key: string) {
    this.map.delete(key);
  }
}

const project = (id: string, name: string): ProjectDto => ({ id, name, slug: 's', status: 'active', domain: null, created_at: '', updated_at: '' });

function setUp(api: Partial<ProjectsApi>, sandboxApi = new FakeSandboxApi(), probe = new FakeUrlProbe()) {
  const prompts = new MemoryPrompts();
  const navigations: string[] = [];
  const events: string[] = [];
  const upgrades: unknown[] = [];
  const vm = new CreationVm(
    { create: async () => project('p1', 'x'), get: async (id) => project(id, 'Habit tracker'), ...api } as ProjectsApi,
    prompts,
    { navigate: (to) => navigations.push(to) },
    { pageView: () => undefined, track: (e) => events.push(e), purchase: () => undefined },
    { openFor: (error, fallback) => (upgrades.push([error instanceof ApiError ? error.status : error, fallback]), error instanceof ApiError && error.status === 402) },
    new SandboxSetup(sandboxApi, probe, new RecordingLogger()),
  );
  return { vm, prompts, navigations, events, upgrades, sandboxApi, probe };
}

describe('CreationVm', () => {
  it('turns the landing idea into a project, moves the prompt to it and goes on', async () => {
    const created: string[] = [];
    const t = setUp({ create: async (name) => (created.push(name), project('p1', name)) });
    t.prompts.set(HOME_PROMPT_KEY, 'A habit tracker with streaks and reminders for my team');
    await t.vm.init('new');
    await t.vm.init('new'); // StrictMode's second mount creates nothing
    expect(created).toEqual(['A habit tracker with streaks and reminders for']);
    expect(t.prompts.get('p1')).toBe('A habit tracker with streaks and reminders for my team');
    expect(t.prompts.get(HOME_PROMPT_KEY)).toBeNull();
    expect(t.navigations).toEqual(['/creation/p1']);
    expect(t.events).toEqual(['Project Created']);
  });

  it('with the wizard: creates the project (named from the idea, else untitled) and goes on to /wizard/{id}', async () => {
    const created: string[] = [];
    const t = setUp({ create: async (name) => (created.push(name), project('p1', name)) });
    await t.vm.init('new', true);
    expect(created).toEqual(['Untitled project']);
    expect(t.navigations).toEqual(['/wizard/p1']);
    expect(t.prompts.get('p1')).toBeNull();
    const withIdea = setUp({ create: async (name) => project('p2', name) });
    withIdea.prompts.set(HOME_PROMPT_KEY, 'A blog about hiking');
    await withIdea.vm.init('new', true);
    expect(withIdea.prompts.get('p2')).toBe('A blog about hiking');
    expect(withIdea.navigations).toEqual(['/wizard/p2']);
  });

  it('says so when there is no idea to start from', async () => {
    const t = setUp({});
    await t.vm.init('new');
    expect(t.vm.state).toEqual({ kind: 'no-idea' });
  });

  it('shows the project limit in words when the plan is full (402)', async () => {
    const t = setUp({ create: async () => Promise.reject(new ApiError('Your Free plan includes 3 private projects. Please upgrade to create more.', 402, 'PROJECTS.LIMIT_REACHED', {})) });
    t.prompts.set(HOME_PROMPT_KEY, 'A blog');
    await t.vm.init('new');
    expect(t.vm.state).toEqual({ kind: 'limit', message: 'Your Free plan includes 3 private projects. Please upgrade to create more.' });
    expect(t.prompts.get(HOME_PROMPT_KEY)).toBe('A blog');
    expect(t.upgrades).toEqual([[402, 'project']]);
  });

  it('opens an existing project with its idea', async () => {
    const t = setUp({});
    t.prompts.set('p9', 'A habit tracker');
    await t.vm.init('p9');
    expect(t.vm.state).toEqual({ kind: 'ready', projectId: 'p9', name: 'Habit tracker', prompt: 'A habit tracker' });
    expect(t.events).toEqual(['Project Opened']);
  });

  it('names projects from the first words of the idea', () => {
    expect(projectNameFrom('  A   todo app.  ')).toBe('A todo app');
    expect(projectNameFrom('')).toBe('Untitled project');
    expect(projectNameFrom('A habit tracker called Streaks with a dark theme')).toBe('Streaks');
    expect(projectNameFrom('A landing page for a coffee shop named “Bean There”, in green')).toBe('Bean There');
    expect(projectNameFrom('A notes app titled Jot')).toBe('Jot');
  });
});

describe('CreationVm sandbox initialisation (SPEC §4)', () => {
  it('runs the three stages in order, showing each, then opens the builder', async () => {
    const sandboxApi = new FakeSandboxApi();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const readDirectory = sandboxApi.readDirectory.bind(sandboxApi);
    sandboxApi.readDirectory = async (id, path) => (await gate, readDirectory(id, path));
    const t = setUp({}, sandboxApi);

    const done = t.vm.init('p9');
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.vm.setup).toEqual({ kind: 'running' });
    expect(t.vm.stage).toBe(2);
    expect(t.navigations).toEqual([]);

    release();
    await done;
    expect(t.vm.stage).toBe(3);
    expect(t.vm.setup).toEqual({ kind: 'done' });
    expect(sandboxApi.calls).toEqual(['ensure', 'readDirectory .', 'getTree', 'findErrors']);
    expect(t.navigations).toEqual(['/builder/p9']);
  });

  it('treats a sandbox whose address answers as running when ensure fails (SPEC §8)', async () => {
    const sandboxApi = new FakeSandboxApi();
    sandboxApi.failures.set('ensure', new ApiError('Request failed', 502, null, null));
    const probe = new FakeUrlProbe(true);
    const t = setUp({}, sandboxApi, probe);

    await t.vm.init('p9');

    expect(probe.probed).toEqual([sandboxApi.info_.url]);
    expect(t.navigations).toEqual(['/builder/p9']);
  });

  it('stops at stage 1 with the error when the address does not answer either, and retries', async () => {
    const sandboxApi = new FakeSandboxApi();
    sandboxApi.failures.set('ensure', new ApiError('The sandbox host is not reachable', 503, null, null));
    const t = setUp({}, sandboxApi, new FakeUrlProbe(false));

    await t.vm.init('p9');
    expect(t.vm.setup).toEqual({ kind: 'failed', message: 'The sandbox host is not reachable' });
    expect(t.vm.stage).toBe(1);
    expect(t.navigations).toEqual([]);

    sandboxApi.failures.clear();
    await t.vm.retrySetup();
    expect(t.vm.setup).toEqual({ kind: 'done' });
    expect(t.navigations).toEqual(['/builder/p9']);
  });

  it('goes on when reading the folder, the tree or the scan fails (empty list, zero counts)', async () => {
    const sandboxApi = new FakeSandboxApi();
    for (const method of ['readDirectory', 'getTree', 'findErrors'] as const) sandboxApi.failures.set(method, new Error('down'));
    const t = setUp({}, sandboxApi);
    await t.vm.init('p9');
    expect(t.navigations).toEqual(['/builder/p9']);
  });

  it('sets the sandbox up once when StrictMode mounts twice, and not at all after leaving', async () => {
    const sandboxApi = new FakeSandboxApi();
    const t = setUp({}, sandboxApi);
    const first = t.vm.init('p9');
    t.vm.dispose();
    const second = t.vm.init('p9');
    await Promise.all([first, second]);
    expect(sandboxApi.calls.filter((c) => c === 'ensure')).toHaveLength(1);
    expect(t.navigations).toEqual(['/builder/p9']);

    const left = setUp({}, new FakeSandboxApi());
    const run = left.vm.init('p9');
    left.vm.dispose();
    await run;
    expect(left.navigations).toEqual([]);
  });
});

import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { ApiError, HOME_PROMPT_KEY, type SavedPrompts } from '../../app/ports';
import type { ProjectDto, ProjectsApi } from '../../api/projects.api';
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

function setUp(api: Partial<ProjectsApi>) {
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
  );
  return { vm, prompts, navigations, events, upgrades };
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
  });
});

import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../app/ports';
import type { ProjectDto, ProjectsApi } from '../../api/projects.api';
import { ManualTimers } from '../../testing/auth-fakes';
import { FakeSession, FakeToasts } from '../../testing/ui-fakes';
import { ProjectsVm } from './projects.vm';

const NOW = Date.parse('2026-11-24T12:00:00Z');

const project = (id: string, name: string, updatedMinutesAgo: number, domain: string | null = null): ProjectDto => ({
  id,
  name,
  slug: id,
  status: 'active',
  domain,
  created_at: '2026-11-01T00:00:00Z',
  updated_at: new Date(NOW - updatedMinutesAgo * 60_000).toISOString(),
});

class FakeProjectsApi implements ProjectsApi {
  projects: ProjectDto[] = [project('p1', 'Chores', 120), project('p2', 'Streaks', 3, 'streaks.example.com')];
  lists = 0;
  failNext: Error | null = null;
  readonly calls: string[] = [];
  private fail(): void {
    const failure = this.failNext;
    this.failNext = null;
    if (failure) throw failure;
  }
  async create(): Promise<ProjectDto> {
    throw new Error('not used');
  }
  async get(): Promise<ProjectDto> {
    throw new Error('not used');
  }
  async list(): Promise<ProjectDto[]> {
    this.lists += 1;
    this.fail();
    return [...this.projects];
  }
  async rename(id: string, name: string): Promise<ProjectDto> {
    this.calls.push(`rename ${id} ${name}`);
    this.fail();
    const renamed = { ...(this.projects.find((p) => p.id === id) as ProjectDto), name, updated_at: new Date(NOW).toISOString() };
    this.projects = this.projects.map((p) => (p.id === id ? renamed : p));
    return renamed;
  }
  async remove(id: string): Promise<void> {
    this.calls.push(`remove ${id}`);
    this.fail();
    this.projects = this.projects.filter((p) => p.id !== id);
  }
}

function setup(status: 'signed-in' | 'signed-out' = 'signed-in') {
  const api = new FakeProjectsApi();
  const toasts = new FakeToasts();
  const vm = new ProjectsVm(api, new FakeSession(status), new ManualTimers(NOW), toasts);
  return { api, toasts, vm };
}

describe('ProjectsVm (home: your projects)', () => {
  it('lists the signed-in person’s projects, most recently edited first, each opening in the builder', async () => {
    const { vm } = setup();
    await vm.load();
    expect(vm.cards).toEqual([
      { id: 'p2', name: 'Streaks', href: '/builder/p2', edited: 'Edited 3 minutes ago', published: true, liveUrl: null, liveHost: null, thumbnail: null },
      { id: 'p1', name: 'Chores', href: '/builder/p1', edited: 'Edited 2 hours ago', published: false, liveUrl: null, liveHost: null, thumbnail: null },
    ]);
    expect(vm.loaded).toBe(true);
  });

  it('a published project shows its live address and screenshot when the list carries them (no request per card)', async () => {
    const { api, vm } = setup();
    api.projects = [
      { ...project('p3', 'Pantry', 1, 'pantry.apps.localhost'), published_url: 'http://pantry.apps.localhost:3000', screenshot_url: '/api/hosting/sites/pantry/screenshot.png' },
      { ...project('p4', 'Evil', 2), published_url: 'javascript:alert(1)', screenshot_url: '//evil.example/x.png' },
    ];
    await vm.load();
    expect(api.lists).toBe(1);
    expect(vm.cards.map(({ published, liveUrl, liveHost, thumbnail }) => ({ published, liveUrl, liveHost, thumbnail }))).toEqual([
      { published: true, liveUrl: 'http://pantry.apps.localhost:3000/', liveHost: 'pantry.apps.localhost:3000', thumbnail: '/api/hosting/sites/pantry/screenshot.png' },
      // Addresses that are not http(s) never reach a link or an image.
      { published: false, liveUrl: null, liveHost: null, thumbnail: null },
    ]);
  });

  it('fetches nothing and shows nothing for a signed-out visitor', async () => {
    const { vm, api } = setup('signed-out');
    await vm.load();
    expect(vm.visible).toBe(false);
    expect(api.lists).toBe(0);
  });

  it('says when the list cannot be loaded', async () => {
    const { vm, api } = setup();
    api.failNext = new ApiError('Request failed', 500, null, null);
    await vm.load();
    expect(vm.error).toBe('Request failed');
    expect(vm.cards).toEqual([]);
  });

  it('renames with a checked name (trimmed, not blank, at most 100 characters)', async () => {
    const { vm, api } = setup();
    await vm.load();
    vm.startRename('p1');
    expect(vm.dialog).toMatchObject({ kind: 'rename', name: 'Chores' });
    vm.setName('   ');
    expect(vm.renameError).toBe('Enter a name.');
    await vm.confirm();
    expect(api.calls).toEqual([]);
    vm.setName('x'.repeat(101));
    expect(vm.renameError).toBe('Use at most 100 characters.');
    vm.setName('  Errands  ');
    await vm.confirm();
    expect(api.calls).toEqual(['rename p1 Errands']);
    expect(vm.dialog).toBeNull();
    expect(vm.cards.map((c) => c.name)).toEqual(['Errands', 'Streaks']);
  });

  it('deletes after confirmation and says so; a failure keeps the dialog open with the reason', async () => {
    const { vm, api, toasts } = setup();
    await vm.load();
    vm.startDelete('p2');
    api.failNext = new ApiError('Project not found', 404, 'PROJECTS.NOT_FOUND', null);
    await vm.confirm();
    expect(vm.dialog).toMatchObject({ kind: 'delete' });
    expect(vm.dialogError).toBe('Project not found');
    await vm.confirm();
    expect(api.calls).toEqual(['remove p2', 'remove p2']);
    expect(vm.dialog).toBeNull();
    expect(vm.cards.map((c) => c.id)).toEqual(['p1']);
    expect(toasts.shown).toEqual([{ title: 'Project deleted', description: '“Streaks” was deleted.', variant: 'success' }]);
  });

  it('cannot be closed while a change is under way', async () => {
    const { vm } = setup();
    await vm.load();
    vm.startDelete('p1');
    const confirming = vm.confirm();
    vm.closeDialog();
    expect(vm.dialog).not.toBeNull();
    await confirming;
    expect(vm.dialog).toBeNull();
  });
});

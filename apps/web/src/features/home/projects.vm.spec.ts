import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../app/ports';
import type { ProjectDto, ProjectsApi } from '../../api/projects.api';
import type { SiteSummaryDto } from '../../api/hosting.api';
import { ManualTimers } from '../../testing/auth-fakes';
import { FakeSession, FakeToasts, RecordingLogger } from '../../testing/ui-fakes';
import { FakeHostingApi } from '../../testing/hosting-fakes';
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

const site = (projectId: string, fields: Partial<SiteSummaryDto>): SiteSummaryDto => ({
  project_id: projectId,
  status: 'live',
  slug: projectId,
  published_url: null,
  screenshot_url: null,
  ...fields,
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
  const hosting = new FakeHostingApi();
  const toasts = new FakeToasts();
  const logger = new RecordingLogger();
  const vm = new ProjectsVm(api, hosting, new FakeSession(status), new ManualTimers(NOW), toasts, logger);
  return { api, hosting, toasts, logger, vm };
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

  it('a published project shows Live, its address and its screenshot from one sites request beside the list (none per card)', async () => {
    const { api, hosting, vm } = setup();
    api.projects = [project('p3', 'Pantry', 1, 'pantry.apps.localhost'), project('p4', 'Evil', 2), project('p5', 'Paused', 3), project('p6', 'Idea', 4)];
    hosting.sitesReply = [
      site('p3', { slug: 'pantry', published_url: 'http://pantry.apps.localhost:3000', screenshot_url: '/api/hosting/sites/pantry/screenshot.png?v=1' }),
      site('p4', { published_url: 'javascript:alert(1)', screenshot_url: '//evil.example/x.png' }),
      site('p5', { status: 'unpublished', published_url: 'http://paused.apps.localhost:3000', screenshot_url: '/api/hosting/sites/paused/screenshot.png' }),
      site('someone-elses', {}),
    ];
    await vm.load();
    expect(api.lists).toBe(1);
    expect(hosting.calls).toEqual(['sites']);
    expect(vm.cards.map(({ id, published, liveUrl, liveHost, thumbnail }) => ({ id, published, liveUrl, liveHost, thumbnail }))).toEqual([
      { id: 'p3', published: true, liveUrl: 'http://pantry.apps.localhost:3000/', liveHost: 'pantry.apps.localhost:3000', thumbnail: '/api/hosting/sites/pantry/screenshot.png?v=1' },
      // Addresses that are not http(s) (or not Kiln's own paths) never reach a link or an image.
      { id: 'p4', published: true, liveUrl: null, liveHost: null, thumbnail: null },
      // An unpublished site is not live: no badge, no address, no picture.
      { id: 'p5', published: false, liveUrl: null, liveHost: null, thumbnail: null },
      { id: 'p6', published: false, liveUrl: null, liveHost: null, thumbnail: null },
    ]);
    await vm.load();
    expect(hosting.calls).toEqual(['sites', 'sites']);
  });

  it('a failed or malformed sites request does not break the list: the cards just lack the live address and picture', async () => {
    const { api, hosting, logger, vm } = setup();
    api.projects = [project('p3', 'Pantry', 1)];
    hosting.sitesReply = [site('p3', { published_url: 'http://pantry.apps.localhost:3000', screenshot_url: '/api/hosting/sites/pantry/screenshot.png' })];
    hosting.fail('sites', new ApiError('Service unavailable', 503, null, null));
    await vm.load();
    expect(vm.error).toBeNull();
    expect(vm.loaded).toBe(true);
    expect(vm.cards).toEqual([{ id: 'p3', name: 'Pantry', href: '/builder/p3', edited: 'Edited 1 minute ago', published: false, liveUrl: null, liveHost: null, thumbnail: null }]);
    expect(logger.lines).toEqual(['warn: Sites could not be loaded']);
    // Loading again brings them back.
    await vm.load();
    expect(vm.cards[0]).toMatchObject({ published: true, liveHost: 'pantry.apps.localhost:3000' });
    // Something that is not a list, or entries that are not sites, are ignored.
    hosting.sites = async () => ({ nope: true }) as unknown as SiteSummaryDto[];
    await vm.load();
    expect(vm.cards[0]).toMatchObject({ published: false, liveUrl: null, thumbnail: null });
    hosting.sites = async () => [null, 'x', { project_id: 'p3' }] as unknown as SiteSummaryDto[];
    await vm.load();
    expect(vm.cards[0]).toMatchObject({ published: false, liveUrl: null, thumbnail: null });
    expect(logger.lines).toEqual(['warn: Sites could not be loaded', 'warn: Sites answer is not a list']);
  });

  it('fetches nothing and shows nothing for a signed-out visitor', async () => {
    const { vm, api, hosting } = setup('signed-out');
    await vm.load();
    expect(vm.visible).toBe(false);
    expect(api.lists).toBe(0);
    expect(hosting.calls).toEqual([]);
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

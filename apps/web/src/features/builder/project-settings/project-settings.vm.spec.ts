import { describe, expect, it } from '@jest/globals';
import { MAX_PROJECT_NAME_LENGTH } from '@kiln/domain';
import { ApiError } from '../../../app/ports';
import type { ProjectDto, ProjectsApi } from '../../../api/projects.api';
import { RecordingNavigator } from '../../../testing/auth-fakes';
import { FakeToasts } from '../../../testing/ui-fakes';
import { ProjectSettingsVm } from './project-settings.vm';

const PANTRY: ProjectDto = { id: 'p1', name: 'Pantry', slug: 'pantry-3f2a', status: 'active', domain: null, created_at: '2026-11-20T10:00:00Z', updated_at: '2026-11-20T10:00:00Z' };

function setUp(overrides: Partial<ProjectsApi> = {}) {
  const calls: string[] = [];
  const api: ProjectsApi = {
    create: async () => PANTRY,
    list: async () => [PANTRY],
    get: async (id) => (calls.push(`get ${id}`), PANTRY),
    rename: async (id, name) => (calls.push(`rename ${id} ${name}`), { ...PANTRY, name }),
    remove: async (id) => void calls.push(`remove ${id}`),
    ...overrides,
  };
  const toasts = new FakeToasts();
  const navigator = new RecordingNavigator();
  const vm = new ProjectSettingsVm(api, toasts, navigator);
  const renamed: string[] = [];
  vm.setProject('p1', (name) => renamed.push(name));
  return { vm, calls, toasts, navigator, renamed };
}

describe('ProjectSettingsVm (the builder’s settings panel)', () => {
  it('opens on the project as it is now', async () => {
    const t = setUp();
    await t.vm.show();
    expect(t.vm.open).toBe(true);
    expect(t.vm.project).toEqual(PANTRY);
    expect(t.vm.name).toBe('Pantry');
    expect(t.vm.canSave).toBe(false); // nothing changed yet
  });

  it('renames the project, and the builder’s title follows', async () => {
    const t = setUp();
    await t.vm.show();
    t.vm.setName('  Larder ');
    expect(t.vm.canSave).toBe(true);
    await t.vm.save();
    expect(t.calls).toContain('rename p1 Larder');
    expect(t.renamed).toEqual(['Larder']);
    expect(t.vm.project?.name).toBe('Larder');
    expect(t.toasts.shown.map((s) => s.title)).toEqual(['Project renamed']);
  });

  it('refuses an empty or too long name before asking the server', async () => {
    const t = setUp();
    await t.vm.show();
    t.vm.setName('   ');
    expect(t.vm.nameError).toBe('Give the project a name.');
    t.vm.setName('x'.repeat(MAX_PROJECT_NAME_LENGTH + 1));
    expect(t.vm.nameError).toBe(`Use at most ${MAX_PROJECT_NAME_LENGTH} characters.`);
    await t.vm.save();
    expect(t.calls.filter((c) => c.startsWith('rename'))).toEqual([]);
  });

  it('deletes only once the project’s name is typed, then leaves for the projects list', async () => {
    const t = setUp();
    await t.vm.show();
    t.vm.setConfirmText('pantry');
    expect(t.vm.canDelete).toBe(false);
    await t.vm.remove();
    expect(t.calls.filter((c) => c.startsWith('remove'))).toEqual([]);
    t.vm.setConfirmText(' Pantry ');
    expect(t.vm.canDelete).toBe(true);
    await t.vm.remove();
    expect(t.calls).toContain('remove p1');
    expect(t.vm.open).toBe(false);
    expect(t.navigator.visits).toEqual([{ to: '/', replace: true }]);
    expect(t.toasts.shown.map((s) => s.title)).toEqual(['Project deleted']);
  });

  it('says what went wrong and stays open when the server refuses', async () => {
    const t = setUp({ remove: async () => Promise.reject(new ApiError('Service unavailable, try again', 503, 'PROJECTS.UNAVAILABLE', {})) });
    await t.vm.show();
    t.vm.setConfirmText('Pantry');
    await t.vm.remove();
    expect(t.vm.open).toBe(true);
    expect(t.vm.error).toBe('Service unavailable, try again');
    expect(t.navigator.visits).toEqual([]);
  });

  it('a project that cannot be loaded says so', async () => {
    const t = setUp({ get: async () => Promise.reject(new Error('')) });
    await t.vm.show();
    expect(t.vm.error).toBe('The project could not be loaded.');
    expect(t.vm.canSave).toBe(false);
    expect(t.vm.canDelete).toBe(false);
  });
});

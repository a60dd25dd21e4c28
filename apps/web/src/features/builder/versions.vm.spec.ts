import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import type { ProjectDto, ProjectsApi } from '../../api/projects.api';
import { ManualTimers, RecordingAnalytics } from '../../testing/auth-fakes';
import { FakeFileSaver, FakeNavigation, FakeToasts, RecordingLogger } from '../../testing/ui-fakes';
import { FakeFeed, FakeSandboxApi, FakeUrlProbe, FakeWindowMessages, MemoryPreferences, SequentialIds } from './builder.fakes';
import { BuilderVm } from './builder.vm';
import { SandboxSetup } from './sandbox-setup';

const settle = async () => {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

async function started() {
  const api = new FakeSandboxApi();
  const toasts = new FakeToasts();
  const logger = new RecordingLogger();
  const project: ProjectDto = { id: 'p1', name: 'x', slug: 'x', status: 'active', domain: null, created_at: '', updated_at: '' };
  const vm = new BuilderVm(
    api,
    new FakeFeed(),
    { get: async () => project } as unknown as ProjectsApi,
    new SandboxSetup(api, new FakeUrlProbe(), logger),
    toasts,
    new ManualTimers(Date.parse('2024-01-01T12:00:00.000Z')),
    new MemoryPreferences(),
    new FakeWindowMessages(),
    new FakeNavigation(),
    new SequentialIds(),
    logger,
    new RecordingAnalytics(),
    new FakeFileSaver(),
  );
  await vm.start('p1');
  await settle();
  return { api, toasts, vm, versions: vm.versions };
}

describe('VersionsVm', () => {

  it('lists versions newest first with relative dates and changed-file counts', async () => {
    const { versions } = await started();
    expect(versions.rows).toEqual([
      // Each version lists its files; those of the oldest cannot be undone (before it there was nothing).
      { hash: 'bbbbbbb2222', shortHash: 'bbbbbbb', message: 'Add a header', date: '2024-01-01T11:58:00.000Z', when: '2 minutes ago', filesChanged: 2, files: ['src/App.tsx', 'src/Header.tsx'], canUndoFiles: true, current: true },
      { hash: 'aaaaaaa1111', shortHash: 'aaaaaaa', message: 'Initial version', date: '2024-01-01T10:00:00.000Z', when: '2 hours ago', filesChanged: 1, files: ['package.json'], canUndoFiles: false, current: false },
    ]);
  });

  it('shows an empty list when the history fails (SPEC §8)', async () => {
    const { api, versions } = await started();
    api.failures.set('gitHistory', new Error('git is broken'));
    await versions.load();
    expect(versions.rows).toEqual([]);
    expect(versions.status).toBe('ready');
  });

  it('saves a version with the typed message, then lists it', async () => {
    const { api, toasts, versions } = await started();
    versions.setMessage('  Dark mode  ');
    await versions.saveVersion();
    expect(api.calls).toContain('gitCommit Dark mode');
    expect(versions.rows[0]?.message).toBe('Dark mode');
    expect(versions.message).toBe('');
    expect(toasts.shown).toEqual([{ title: 'Version saved', description: 'Dark mode', variant: 'success' }]);
  });

  it('reports a commit that made nothing (success false) without an error', async () => {
    const { api, toasts, versions } = await started();
    api.commitResult = { success: false, message: 'Nothing to commit' };
    versions.setMessage('x');
    await versions.saveVersion();
    expect(toasts.shown).toEqual([{ title: 'No version saved', description: 'Nothing to commit', variant: 'warning' }]);
    expect(versions.message).toBe('x');
  });

  it('restores after confirmation, then refreshes history, tree, open files and the preview', async () => {
    const { api, toasts, vm, versions } = await started();
    await vm.files.open('src/App.tsx');
    versions.askRestore('aaaaaaa1111');
    expect(versions.pendingRestore?.message).toBe('Initial version');
    api.calls.length = 0;
    api.files.set('src/App.tsx', 'restored');

    expect(await versions.confirmRestore()).toBe(true);

    expect(api.calls).toEqual(expect.arrayContaining(['gitRestore aaaaaaa1111', 'gitHistory', 'getTree', 'readFile src/App.tsx']));
    expect(api.calls[0]).toBe('gitRestore aaaaaaa1111');
    expect(vm.files.activeFile?.text).toBe('restored');
    expect(vm.previewKey).toBe(1);
    expect(versions.pendingRestore).toBeNull();
    expect(toasts.shown).toEqual([{ title: 'Version restored', description: 'Initial version', variant: 'success' }]);
  });

  it('"Undo this file" puts one file back as before its version, then refreshes history, tree, open files and preview', async () => {
    const { api, toasts, vm, versions } = await started();
    await vm.files.open('src/App.tsx');
    api.calls.length = 0;
    api.files.set('src/App.tsx', 'as before');

    const undoing = versions.undoFile('bbbbbbb2222', 'src/App.tsx');
    expect(versions.isUndoing('bbbbbbb2222', 'src/App.tsx')).toBe(true);
    expect(await versions.undoFile('bbbbbbb2222', 'src/other.ts')).toBe(false); // one at a time
    expect(await undoing).toBe(true);

    expect(api.calls[0]).toBe('gitRestoreFile bbbbbbb2222 src/App.tsx');
    expect(api.calls).toEqual(expect.arrayContaining(['gitHistory', 'getTree', 'readFile src/App.tsx']));
    expect(vm.files.activeFile?.text).toBe('as before');
    expect(vm.previewKey).toBe(1);
    expect(versions.undoingFile).toBeNull();
    expect(toasts.shown).toEqual([{ title: 'File undone', description: 'src/App.tsx is back as it was before that version.', variant: 'success' }]);
  });

  it('"Undo this file" that fails says so and changes nothing', async () => {
    const { api, toasts, vm, versions } = await started();
    api.restoreResult = { success: false, message: 'Unknown version: x' };
    expect(await versions.undoFile('bbbbbbb2222', 'src/App.tsx')).toBe(false);
    expect(toasts.shown).toEqual([{ title: 'Could not undo that file', description: 'Unknown version: x', variant: 'error' }]);
    expect(vm.previewKey).toBe(0);
    api.failures.set('gitRestoreFile', new Error('offline'));
    expect(await versions.undoFile('bbbbbbb2222', 'src/App.tsx')).toBe(false);
    expect(toasts.shown.at(-1)).toEqual({ title: 'Could not undo that file', description: 'offline', variant: 'error' });
  });

  it('does nothing without confirmation, and keeps the dialog answerable after a failure', async () => {
    const { api, toasts, vm, versions } = await started();
    expect(await versions.confirmRestore()).toBe(false);
    versions.askRestore('aaaaaaa1111');
    versions.cancelRestore();
    expect(versions.pendingRestore).toBeNull();

    versions.askRestore('aaaaaaa1111');
    api.restoreResult = { success: false, message: 'Unknown version' };
    expect(await versions.confirmRestore()).toBe(false);
    expect(toasts.shown).toEqual([{ title: 'Could not restore that version', description: 'Unknown version', variant: 'error' }]);
    expect(vm.previewKey).toBe(0);
  });
});

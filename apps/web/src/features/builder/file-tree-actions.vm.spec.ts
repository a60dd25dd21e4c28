import { describe, expect, it } from '@jest/globals';
import { FakeFileSaver, FakeToasts, RecordingLogger } from '../../testing/ui-fakes';
import { FakeSandboxApi } from './builder.fakes';
import { FileTreeActionsVm, zipNameFor } from './file-tree-actions.vm';
import { FilesVm } from './files.vm';

async function setUp() {
  const api = new FakeSandboxApi();
  const toasts = new FakeToasts();
  const saver = new FakeFileSaver();
  const files = new FilesVm(api, toasts, new RecordingLogger());
  files.setProject('p1');
  await files.loadTree();
  const vm = new FileTreeActionsVm(api, files, toasts, saver);
  const counts = { changed: 0, restarted: 0 };
  vm.attach({
    project: () => ({ id: 'p1', name: 'My Shop!' }),
    afterChange: () => void counts.changed++,
    afterRestart: () => void counts.restarted++,
  });
  return { api, toasts, saver, files, vm, counts };
}

describe('FileTreeActionsVm', () => {
  it('new file: creates it inside the folder asked, opens it, and the versions reload', async () => {
    const { api, files, vm, counts, toasts } = await setUp();
    vm.startNewFile('src');
    vm.setName('Card.tsx');
    expect(vm.targetPath).toBe('src/Card.tsx');
    expect(await vm.confirm()).toBe(true);
    expect(api.calls).toContain('newFile src/Card.tsx');
    expect(files.display.activePath).toBe('src/Card.tsx');
    expect(files.expanded.has('src')).toBe(true);
    expect(vm.dialog).toBeNull();
    expect(counts.changed).toBe(1);
    expect(toasts.shown.at(-1)).toMatchObject({ title: 'Created Card.tsx', variant: 'success' });
    vm.startNewFile();
    vm.setName('src/components/deep/Hello.tsx');
    expect(await vm.confirm()).toBe(true);
    expect(['src', 'src/components', 'src/components/deep'].every((folder) => files.expanded.has(folder))).toBe(true);
  });

  it('checks a name with the domain rules before anything is sent', async () => {
    const { api, vm } = await setUp();
    for (const [name, problem] of [
      ['', 'Enter a name.'],
      ['../x.ts', 'Use a name inside the project'],
      ['a\\b.ts', 'Use a name inside the project'],
      ['node_modules/x.js', 'node_modules is managed by Kiln'],
    ] as const) {
      vm.startNewFile();
      vm.setName(name);
      expect(await vm.confirm()).toBe(false);
      expect(vm.error).toContain(problem);
    }
    vm.startRename('src/App.tsx', 'file');
    expect(vm.nameProblem).toBe('Enter a new name.');
    expect(api.calls.filter((c) => c.startsWith('newFile') || c.startsWith('rename'))).toEqual([]);
  });

  it("a refusal from the server keeps the dialog open with the server's reason", async () => {
    const { vm } = await setUp();
    vm.startNewFile('src');
    vm.setName('App.tsx');
    expect(await vm.confirm()).toBe(false);
    expect(vm.dialog).not.toBeNull();
    expect(vm.error).toBe('Something else already has this name');
    vm.setName('Other.tsx');
    expect(vm.error).toBeNull();
  });

  it('rename: an open file reopens under its new name; delete closes the tabs under a folder', async () => {
    const { api, files, vm } = await setUp();
    await files.open('src/App.tsx');
    vm.startRename('src/App.tsx', 'file');
    vm.setName('src/ui/App.tsx');
    expect(await vm.confirm()).toBe(true);
    expect(api.calls).toContain('rename src/App.tsx -> src/ui/App.tsx');
    expect(files.display.items.map((i) => i.path)).toEqual(['src/ui/App.tsx']);
    vm.startDelete('src/ui', 'directory');
    expect(await vm.confirm()).toBe(true);
    expect(api.calls).toContain('deletePath src/ui');
    expect(files.display.items).toEqual([]);
  });

  it('restart, clean up and export go through the API and say what happened', async () => {
    const { api, vm, counts, toasts, saver } = await setUp();
    await vm.restartDevServer();
    expect(api.calls).toContain('restartDev');
    await vm.cleanUp();
    expect(toasts.shown.at(-1)).toMatchObject({ title: 'Cleaned up', description: 'Removed dist. Your files were not touched.' });
    expect(counts.restarted).toBe(2);
    await vm.exportZip();
    expect(saver.saved.map((s) => s.fileName)).toEqual(['my-shop.zip']);
    api.failures.set('exportZip', new Error('The project is too large to export'));
    await vm.exportZip();
    expect(toasts.shown.at(-1)).toMatchObject({ title: 'Could not export the project', variant: 'error' });
    expect(saver.saved).toHaveLength(1);
    expect(vm.exporting).toBe(false);
  });

  it('names the zip after the project, safely', () => {
    expect(zipNameFor('My Shop!', 'p1')).toBe('my-shop.zip');
    expect(zipNameFor('../../etc', 'p1')).toBe('etc.zip');
    expect(zipNameFor('   ', 'p1')).toBe('p1.zip');
  });
});

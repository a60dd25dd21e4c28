import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../app/ports';
import { FakeToasts, RecordingLogger } from '../../testing/ui-fakes';
import { FakeSandboxApi } from './builder.fakes';
import { FilesVm } from './files.vm';

async function setUp() {
  const api = new FakeSandboxApi();
  const toasts = new FakeToasts();
  const vm = new FilesVm(api, toasts, new RecordingLogger());
  vm.setProject('p1');
  await vm.loadTree();
  return { api, toasts, vm };
}

describe('FilesVm tree', () => {
  it('shows folders first, and their children only while expanded', async () => {
    const { vm } = await setUp();
    expect(vm.rows.map((r) => `${r.level}:${r.entry.name}`)).toEqual(['1:src', '1:index.html', '1:package.json']);

    vm.toggleFolder('src');
    vm.toggleFolder('src/components');
    expect(vm.rows.map((r) => `${r.level}:${r.entry.name}${r.expanded ? '/' : ''}`)).toEqual([
      '1:src/',
      '2:components/',
      '3:Button.tsx',
      '2:App.tsx',
      '2:main.tsx',
      '1:index.html',
      '1:package.json',
    ]);
    expect(vm.rows[1]).toMatchObject({ position: 1, siblings: 3 });

    vm.toggleFolder('src');
    expect(vm.rows).toHaveLength(3);
  });

  it('keeps the old tree and shows an error toast when loading fails (SPEC §8)', async () => {
    const { vm, api, toasts } = await setUp();
    api.failures.set('getTree', new ApiError('Request failed', 500, null, null));
    await vm.loadTree();
    expect(vm.rows).toHaveLength(3);
    expect(vm.treeStatus).toBe('ready');
    expect(toasts.shown).toEqual([{ title: 'Could not load the files', description: 'Request failed', variant: 'error' }]);
  });
});

describe('FilesVm open files', () => {
  it('opens a file with the language of its extension', async () => {
    const { vm } = await setUp();
    await vm.open('src/App.tsx');
    expect(vm.activeFile).toMatchObject({ path: 'src/App.tsx', label: 'App.tsx', text: 'export default function App() {}', dirty: false, language: 'tsx' });
  });

  it('switches to an open file without reading it again', async () => {
    const { vm, api } = await setUp();
    await vm.open('src/App.tsx');
    await vm.open('index.html');
    api.calls.length = 0;
    await vm.open('src/App.tsx');
    expect(api.calls).toEqual([]);
    expect(vm.activeFile?.path).toBe('src/App.tsx');
  });

  it('toasts and changes nothing when a file cannot be read', async () => {
    const { vm, toasts } = await setUp();
    await vm.open('missing.ts');
    expect(vm.openFiles).toEqual([]);
    expect(toasts.shown[0]).toMatchObject({ title: 'Could not open missing.ts', variant: 'error' });
  });

  it('marks edits dirty, saves them with write-file, and is clean again', async () => {
    const { vm, api } = await setUp();
    await vm.open('src/App.tsx');
    vm.edit('src/App.tsx', 'export default function App() { return 1; }');
    expect(vm.activeFile).toMatchObject({ dirty: true, text: 'export default function App() { return 1; }' });
    expect(vm.hasUnsavedChanges).toBe(true);

    expect(await vm.save()).toBe(true);

    expect(api.writes).toEqual([{ path: 'src/App.tsx', content: 'export default function App() { return 1; }' }]);
    expect(vm.activeFile).toMatchObject({ dirty: false, contents: 'export default function App() { return 1; }' });
  });

  it('is clean again when an edit is typed back to the saved text', async () => {
    const { vm } = await setUp();
    await vm.open('index.html');
    vm.edit('index.html', 'x');
    vm.edit('index.html', '<!doctype html>');
    expect(vm.activeFile?.dirty).toBe(false);
  });

  it('keeps the draft and toasts when saving fails (SPEC §8)', async () => {
    const { vm, api, toasts } = await setUp();
    await vm.open('src/App.tsx');
    vm.edit('src/App.tsx', 'draft');
    api.failures.set('writeFile', new ApiError('Path is outside the project', 400, 'SANDBOX.PATH_OUTSIDE', {}));

    expect(await vm.save()).toBe(false);

    expect(vm.activeFile).toMatchObject({ dirty: true, text: 'draft', contents: 'export default function App() {}' });
    expect(toasts.shown).toEqual([{ title: 'Could not save App.tsx', description: 'Path is outside the project', variant: 'error' }]);
  });

  it('keeps typing that happened while saving as a new draft', async () => {
    const { vm, api } = await setUp();
    await vm.open('src/App.tsx');
    vm.edit('src/App.tsx', 'first');
    const writeFile = api.writeFile.bind(api);
    api.writeFile = async (id, path, content) => {
      vm.edit('src/App.tsx', 'first and more');
      return writeFile(id, path, content);
    };
    await vm.save();
    expect(vm.activeFile).toMatchObject({ contents: 'first', text: 'first and more', dirty: true });
  });

  it('closing the active tab selects the first remaining one and drops its draft', async () => {
    const { vm } = await setUp();
    await vm.open('index.html');
    await vm.open('package.json');
    await vm.open('src/App.tsx');
    vm.edit('src/App.tsx', 'draft');
    vm.close('src/App.tsx');
    expect(vm.activeFile?.path).toBe('index.html');
    expect(vm.hasUnsavedChanges).toBe(false);
  });

  it('a hidden display stays hidden for automatic opens until a person opens a file', async () => {
    const { vm } = await setUp();
    await vm.open('index.html');
    vm.hideDisplay();
    vm.showAutomatically('src/new.ts', 'export {}');
    expect(vm.display.visible).toBe(false);
    await vm.open('index.html');
    expect(vm.display.visible).toBe(true);
  });
});

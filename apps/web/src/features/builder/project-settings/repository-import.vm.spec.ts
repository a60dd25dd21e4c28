import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../../app/ports';
import { FakeToasts } from '../../../testing/ui-fakes';
import { FakeSandboxApi } from '../builder.fakes';
import { RepositoryImportVm } from './repository-import.vm';

function setUp() {
  const sandbox = new FakeSandboxApi();
  const toasts = new FakeToasts();
  const vm = new RepositoryImportVm(sandbox, toasts);
  vm.setProject('p1');
  return { vm, sandbox, toasts };
}

describe('RepositoryImportVm (Import a repository, in the project settings)', () => {
  it('imports a public https repository once the person confirms the files are replaced', async () => {
    const t = setUp();
    t.vm.setUrl('https://github.com/vitejs/vite-plugin-react');
    expect(t.vm.canImport).toBe(false); // not confirmed yet
    t.vm.setConfirmed(true);
    expect(t.vm.canImport).toBe(true);
    await t.vm.importRepository();
    expect(t.sandbox.calls).toContain('setupRepository p1 https://github.com/vitejs/vite-plugin-react');
    expect(t.toasts.shown).toEqual([{ title: 'Repository imported', description: '12 files from https://github.com/vitejs/vite-plugin-react, saved as a version.', variant: 'success' }]);
    expect(t.vm.url).toBe('');
    expect(t.vm.confirmed).toBe(false);
  });

  it.each([
    ['http://github.com/a/b', 'only https://'],
    ['https://user:secret@github.com/a/b', 'user name or password'],
    ['https://127.0.0.1/a/b', 'public name'],
    ['https://github.com', 'must name a repository'],
  ])('refuses %s before sending it, in the server’s words', async (url, words) => {
    const t = setUp();
    t.vm.setUrl(url);
    t.vm.setConfirmed(true);
    expect(t.vm.urlError).toMatch(/^Failed to setup repository: /);
    expect(t.vm.urlError).toContain(words);
    expect(t.vm.canImport).toBe(false);
    await t.vm.importRepository();
    expect(t.sandbox.calls.some((c) => c.startsWith('setupRepository'))).toBe(false);
  });

  it("shows the server's refusal as it is, and keeps what was typed", async () => {
    const t = setUp();
    t.sandbox.failures.set('setupRepository', new ApiError("Failed to setup repository: the repository's files are larger than 50 MB", 422, 'REPOSITORY.IMPORT_FAILED', null));
    t.vm.setUrl('https://github.com/big/repo');
    t.vm.setConfirmed(true);
    await t.vm.importRepository();
    expect(t.vm.error).toBe("Failed to setup repository: the repository's files are larger than 50 MB");
    expect(t.vm.url).toBe('https://github.com/big/repo');
    expect(t.vm.importing).toBe(false);
    expect(t.toasts.shown).toEqual([]);
  });

  it('starts empty on another project', () => {
    const t = setUp();
    t.vm.setUrl('https://github.com/a/b');
    t.vm.setConfirmed(true);
    t.vm.setProject('p2');
    expect(t.vm.url).toBe('');
    expect(t.vm.confirmed).toBe(false);
  });
});

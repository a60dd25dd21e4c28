import { describe, expect, it } from '@jest/globals';
import type { SandboxFiles } from '../../sandbox/sandbox-files.port.js';
import type { SandboxVersions } from '../../sandbox/sandbox-versions.port.js';
import { type SandboxRoleHarness, useSandboxHarness } from './sandbox-role-harness.js';

/** A harness for the SandboxVersions suite. */
export type SandboxVersionsHarness = SandboxRoleHarness<SandboxVersions & SandboxFiles>;

/**
 * The SandboxVersions contract (SPEC §7 version routes, §8): nothing to save is an answer, not a
 * throw; saved versions are listed newest first with the files each changed; restoring makes a
 * new version on top and keeps every later one (and unsaved changes); an unknown version changes
 * nothing. Files are written and read to make and check the versions.
 */
export function sandboxVersionsContract(name: string, makeHarness: () => Promise<SandboxVersionsHarness>): void {
  describe(`SandboxVersions contract: ${name}`, () => {
    let h!: SandboxVersionsHarness;
    const newProject = useSandboxHarness('versions', makeHarness, (ready) => (h = ready));

    it('saves versions, lists them newest first and restores as a new version keeping later history', async () => {
      const id = await newProject();
      const nothing = await h.host.saveVersion(id, 'Nothing changed');
      expect(nothing.success).toBe(false);
      expect(nothing.message).not.toBe('');
      expect((await h.host.saveVersion(id, '   ')).success).toBe(false);

      await h.host.writeFile(id, 'src/message.ts', 'export const message = "first";\n');
      const first = await h.host.saveVersion(id, 'First message');
      expect(first).toMatchObject({ success: true, message: 'First message' });
      expect(first.hash).toMatch(/^[0-9a-f]{40}$/);

      await h.host.writeFile(id, 'src/message.ts', 'export const message = "second";\n');
      await h.host.writeFile(id, 'src/extra.ts', 'export {};\n');
      const second = await h.host.saveVersion(id, 'Second message');
      expect(second.success).toBe(true);

      const history = await h.host.versionHistory(id);
      expect(history.slice(0, 2).map((c) => c.hash)).toEqual([second.hash, first.hash]);
      expect(history[0]).toMatchObject({ message: 'Second message' });
      expect([...(history[0]?.filesChanged ?? [])].sort()).toEqual(['src/extra.ts', 'src/message.ts']);
      expect(history[1]?.filesChanged).toEqual(['src/message.ts']);
      expect(history[0]?.date).toBeInstanceOf(Date);
      expect(history.length).toBeGreaterThanOrEqual(2);

      await h.host.writeFile(id, 'src/message.ts', 'export const message = "uncommitted";\n');
      const restored = await h.host.restoreVersion(id, first.hash ?? '');
      expect(restored.success).toBe(true);
      expect(await h.host.readFile(id, 'src/message.ts')).toBe('export const message = "first";\n');
      await expect(h.host.readFile(id, 'src/extra.ts')).rejects.toThrow();

      const after = await h.host.versionHistory(id);
      expect(after[0]?.hash).toBe(restored.hash);
      const hashes = after.map((c) => c.hash);
      expect(hashes).toEqual(expect.arrayContaining([first.hash, second.hash]));
      expect(after.length).toBeGreaterThanOrEqual(history.length + 2); // the uncommitted edit was kept too

      const bogus = await h.host.restoreVersion(id, 'not-a-commit');
      expect(bogus.success).toBe(false);
      const unknown = await h.host.restoreVersion(id, 'deadbeef'.repeat(5));
      expect(unknown.success).toBe(false);
      expect(await h.host.readFile(id, 'src/message.ts')).toBe('export const message = "first";\n');
    });

    it('never saves tool caches or logs (npm cache and logs, .cache, pnpm and Yarn stores, eslint cache)', async () => {
      const id = await newProject();
      const caches = ['.npm/_cacache/index-v5/00/abc', '.npm/_logs/debug-0.log', '.cache/tool/data.json', '.pnpm-store/v3/x', '.yarn/cache/a.zip', 'npm-debug.log', '.eslintcache'];
      for (const path of caches) await h.host.writeFile(id, path, 'cache\n');
      expect((await h.host.saveVersion(id, 'Only caches')).success).toBe(false);
      await h.host.writeFile(id, 'src/real.ts', 'export const real = 1;\n');
      const saved = await h.host.saveVersion(id, 'A real change');
      expect(saved.success).toBe(true);
      const [latest] = await h.host.versionHistory(id);
      expect(latest?.filesChanged).toEqual(['src/real.ts']);
    });

    it('undoes one file of a version as a new version: back as before it, deleted when the version added it', async () => {
      const id = await newProject();
      await h.host.writeFile(id, 'src/a.ts', 'a1\n');
      await h.host.writeFile(id, 'src/b.ts', 'b1\n');
      const first = await h.host.saveVersion(id, 'First');
      await h.host.writeFile(id, 'src/a.ts', 'a2\n');
      await h.host.writeFile(id, 'src/b.ts', 'b2\n');
      await h.host.writeFile(id, 'src/pages/new.ts', 'new\n');
      const second = await h.host.saveVersion(id, 'Second');
      await h.host.writeFile(id, 'src/b.ts', 'b3 unsaved\n');

      const undone = await h.host.restoreFile(id, second.hash ?? '', 'src/a.ts');
      expect(undone.success).toBe(true);
      expect(undone.hash).toMatch(/^[0-9a-f]{40}$/);
      expect(await h.host.readFile(id, 'src/a.ts')).toBe('a1\n');
      // Only that file: the version's other changes and the unsaved edit stay.
      expect(await h.host.readFile(id, 'src/b.ts')).toBe('b3 unsaved\n');
      expect(await h.host.readFile(id, 'src/pages/new.ts')).toBe('new\n');
      const history = await h.host.versionHistory(id);
      expect(history[0]).toMatchObject({ hash: undone.hash, filesChanged: ['src/a.ts'] });
      expect(history.map((c) => c.hash)).toEqual(expect.arrayContaining([first.hash, second.hash]));

      const added = await h.host.restoreFile(id, second.hash ?? '', 'src/pages/new.ts');
      expect(added.success).toBe(true);
      await expect(h.host.readFile(id, 'src/pages/new.ts')).rejects.toThrow();
      expect((await h.host.versionHistory(id))[0]?.filesChanged).toEqual(['src/pages/new.ts']);

      const again = await h.host.restoreFile(id, second.hash ?? '', 'src/a.ts');
      expect(again).toMatchObject({ success: true });
      expect(again.hash).toBeUndefined();

      expect((await h.host.restoreFile(id, 'deadbeef'.repeat(5), 'src/a.ts')).success).toBe(false);
      expect((await h.host.restoreFile(id, second.hash ?? '', 'src')).success).toBe(false);
      expect(await h.host.readFile(id, 'src/a.ts')).toBe('a1\n');
    });
  });
}

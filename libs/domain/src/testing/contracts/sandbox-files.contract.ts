import { describe, expect, it } from '@jest/globals';
import type { SandboxFiles } from '../../sandbox/sandbox-files.port.js';
import { MAX_LISTING_CONTENT_BYTES, MAX_LISTING_ENTRIES_WITH_CONTENTS } from '../../sandbox/sandbox-limits.js';
import { MAX_PROJECT_NAME_BYTES, MAX_PROJECT_PATH_BYTES } from '../../sandbox/sandbox-path.js';
import { rejectionCode, type SandboxRoleHarness, useSandboxHarness } from './sandbox-role-harness.js';

/** Hostile paths a client may send; every one must be refused. At least 20, per issue 5 (over-long ones: OVER_LONG_SANDBOX_PATHS). */
export const HOSTILE_SANDBOX_PATHS: readonly string[] = [
  '..',
  '../',
  '../etc/passwd',
  '../../../../etc/passwd',
  'src/../../etc/passwd',
  'src/../..',
  './../x',
  'a/b/../../../x',
  '/etc/passwd',
  '/',
  '//etc/passwd',
  '~/.ssh/id_rsa',
  '~root',
  'C:\\Windows\\win.ini',
  'C:/Windows',
  '..\\..\\etc\\passwd',
  'src\\..\\..\\x',
  '%2e%2e/etc/passwd',
  '%2E%2E%2Fetc%2Fpasswd',
  '..%2fetc%2fpasswd',
  '%252e%252e/etc/passwd',
  'src/%2e%2e/%2e%2e/x',
  '..%5c..%5cetc',
  'index.html\u0000.png',
  'a/%00/b',
  'src/\nfoo',
  '../x',
  'a/../../x',
  '%2e%2e%2fx',
  '..%2fx',
  '....//',
  '....//....//etc/passwd',
  '.../x',
  '..\\x',
  'C:\\x',
  '~/x',
  '\\\\server\\share',
  'a/b/c/../../../../etc',
  'src/./../../x',
];

/** Paths longer than a project allows (issue #12 item 9): 400 SANDBOX.PATH_TOO_LONG, never a 500. */
export const OVER_LONG_SANDBOX_PATHS: readonly string[] = [
  'x'.repeat(5000),
  `src/${'a'.repeat(4091)}`, // the 4,095 characters
  `${'abcdefgh/'.repeat(Math.ceil(MAX_PROJECT_PATH_BYTES / 9))}x`, // short names, long path
  `src/${'n'.repeat(MAX_PROJECT_NAME_BYTES + 1)}.ts`, // one name over NAME_MAX
  `src/${'é'.repeat(128)}`, // 256 bytes in UTF-8, 128 characters
];

/** A harness for the SandboxFiles suite. */
export type SandboxFilesHarness = SandboxRoleHarness<SandboxFiles>;

/**
 * The SandboxFiles contract (SPEC §7 file routes, §9): files round-trip, creating parent folders;
 * listings take contents and ignore patterns, within their caps; the tree hides the §9 ignore list
 * and never follows a link; no hostile or over-long path reaches outside the project; the project
 * root cannot be deleted.
 */
export function sandboxFilesContract(name: string, makeHarness: () => Promise<SandboxFilesHarness>): void {
  describe(`SandboxFiles contract: ${name}`, () => {
    let h!: SandboxFilesHarness;
    const newProject = useSandboxHarness('files', makeHarness, (ready) => (h = ready));

    it('round-trips files, creating parent folders, and replaces on write', async () => {
      const id = await newProject();
      const text = 'export const greeting = "Héllo ✓ 李";\n';
      await h.host.writeFile(id, 'src/deep/er/greeting.ts', text);
      expect(await h.host.readFile(id, 'src/deep/er/greeting.ts')).toBe(text);
      await h.host.writeFile(id, './src/deep/er/greeting.ts', 'v2');
      expect(await h.host.readFile(id, 'src/deep/../deep/er/greeting.ts')).toBe('v2');
      await h.host.deleteFile(id, 'src/deep/er/greeting.ts');
      await expect(h.host.readFile(id, 'src/deep/er/greeting.ts')).rejects.toThrow();
    });

    it('creates folders (an existing one is fine) and lists a folder with contents and ignore patterns', async () => {
      const id = await newProject();
      await h.host.createDirectory(id, 'src/components/ui');
      await h.host.createDirectory(id, 'src/components/ui');
      await h.host.writeFile(id, 'src/components/Button.tsx', 'button');
      await h.host.writeFile(id, 'src/components/notes.md', 'notes');
      const listing = await h.host.readDirectory(id, 'src/components', { includeContents: true, ignorePatterns: ['*.md'] });
      expect(listing).toEqual([
        { name: 'ui', type: 'directory' },
        { name: 'Button.tsx', type: 'file', content: 'button' },
      ]);
      const plain = await h.host.readDirectory(id, 'src/components');
      expect(plain.map((e) => e.name).sort()).toEqual(['Button.tsx', 'notes.md', 'ui']);
      expect(plain.every((e) => e.content === undefined)).toBe(true);
    });

    it('builds the file tree without the SPEC §9 ignore list, with project-relative paths', async () => {
      const id = await newProject();
      // node_modules itself may be a link into a shared, read-only cache (LocalSandboxHost): the
      // tree hides it whatever it is; other ignored folders are written to here.
      await h.host.writeFile(id, 'dist/index.html', 'x');
      await h.host.writeFile(id, 'build/assets/app.js', 'x');
      await h.host.writeFile(id, '.env', 'SECRET=1');
      await h.host.writeFile(id, 'tsconfig.tsbuildinfo', '{}');
      await h.host.writeFile(id, 'src/.kiln/bridge.ts', 'x');
      await h.host.writeFile(id, 'src/feature/util.ts', 'x');
      const tree = await h.host.getTree(id, '.');
      const all = (entries: typeof tree): string[] => entries.flatMap((e) => [e.path, ...all(e.children ?? [])]);
      const paths = all(tree);
      expect(paths).toEqual(expect.arrayContaining(['src', 'src/feature', 'src/feature/util.ts', 'src/App.tsx', 'package.json']));
      for (const hidden of ['node_modules', 'dist', 'build', '.env', 'tsconfig.tsbuildinfo', 'src/.kiln', '.git']) {
        expect(paths).not.toContain(hidden);
      }
      expect(paths.some((p) => p.startsWith('node_modules/') || p.startsWith('dist/'))).toBe(false);
      const src = tree.find((e) => e.path === 'src');
      expect(src).toMatchObject({ name: 'src', type: 'directory' });
      const sub = await h.host.getTree(id, 'src/feature');
      expect(sub).toEqual([{ name: 'util.ts', type: 'file', path: 'src/feature/util.ts' }]);
      const everything = all(await h.host.getTree(id, '.', []));
      expect(everything).toEqual(expect.arrayContaining(['dist/index.html', 'build/assets/app.js', '.env', 'src/.kiln/bridge.ts']));
      expect(everything.some((p) => p.startsWith('node_modules/'))).toBe(false); // a link is never followed
    });

    it(`refuses every one of ${HOSTILE_SANDBOX_PATHS.length} hostile paths in every file operation`, async () => {
      const id = await newProject();
      for (const path of HOSTILE_SANDBOX_PATHS) {
        const codes = await Promise.all([
          rejectionCode(h.host.readFile(id, path)),
          rejectionCode(h.host.writeFile(id, path, 'pwned')),
          rejectionCode(h.host.deleteFile(id, path)),
          rejectionCode(h.host.createDirectory(id, path)),
          rejectionCode(h.host.readDirectory(id, path)),
          rejectionCode(h.host.getTree(id, path)),
        ]);
        expect({ path, codes }).toEqual({ path, codes: Array(6).fill('SANDBOX.PATH_OUTSIDE') });
      }
    });

    it(`refuses ${OVER_LONG_SANDBOX_PATHS.length} over-long paths in every file operation with SANDBOX.PATH_TOO_LONG`, async () => {
      const id = await newProject();
      for (const path of OVER_LONG_SANDBOX_PATHS) {
        const codes = await Promise.all([
          rejectionCode(h.host.readFile(id, path)),
          rejectionCode(h.host.writeFile(id, path, 'x')),
          rejectionCode(h.host.deleteFile(id, path)),
          rejectionCode(h.host.createDirectory(id, path)),
          rejectionCode(h.host.readDirectory(id, path)),
          rejectionCode(h.host.getTree(id, path)),
        ]);
        expect({ path: path.slice(0, 40), codes }).toEqual({ path: path.slice(0, 40), codes: Array(6).fill('SANDBOX.PATH_TOO_LONG') });
      }
      // At the limits exactly, a name and a path are fine.
      const longest = `src/${'n'.repeat(MAX_PROJECT_NAME_BYTES)}`;
      await h.host.writeFile(id, longest, 'fits');
      expect(await h.host.readFile(id, longest)).toBe('fits');
    });

    it('refuses read-directory with contents over its entry and byte caps (SANDBOX.TOO_LARGE), and lists without contents', async () => {
      const id = await newProject();
      for (let i = 0; i <= MAX_LISTING_ENTRIES_WITH_CONTENTS; i++) await h.host.writeFile(id, `many/f${i}.txt`, 'x');
      expect(await rejectionCode(h.host.readDirectory(id, 'many', { includeContents: true }))).toBe('SANDBOX.TOO_LARGE');
      expect(await h.host.readDirectory(id, 'many')).toHaveLength(MAX_LISTING_ENTRIES_WITH_CONTENTS + 1);

      const half = 'y'.repeat(MAX_LISTING_CONTENT_BYTES / 2 + 1);
      await h.host.writeFile(id, 'big/a.txt', half);
      expect(await h.host.readDirectory(id, 'big', { includeContents: true })).toEqual([{ name: 'a.txt', type: 'file', content: half }]);
      await h.host.writeFile(id, 'big/b.txt', half);
      const refusal = await h.host.readDirectory(id, 'big', { includeContents: true }).then(
        () => null,
        (e: { code?: string; error?: { cap?: string } }) => ({ code: e.code, cap: e.error?.cap }),
      );
      expect(refusal).toEqual({ code: 'SANDBOX.TOO_LARGE', cap: 'listing-bytes' });
    }, 60_000);

    it('refuses to delete the project root', async () => {
      const id = await newProject();
      await expect(h.host.deleteFile(id, '.')).rejects.toThrow();
      expect(await h.host.readFile(id, 'package.json')).toContain('"name"');
    });
  });
}

import { describe, expect, it } from '@jest/globals';
import type { ProjectFileBytes, SandboxFileActions } from '../../sandbox/sandbox-file-actions.port.js';
import type { SandboxFiles } from '../../sandbox/sandbox-files.port.js';
import { HOSTILE_SANDBOX_PATHS } from './sandbox-files.contract.js';
import { rejectionCode, type SandboxRoleHarness, useSandboxHarness } from './sandbox-role-harness.js';

/** A harness for the SandboxFileActions suite (it reads back through SandboxFiles). */
export type SandboxFileActionsHarness = SandboxRoleHarness<SandboxFileActions & SandboxFiles>;

/** The bytes as text (UTF-8; the domain has no TextDecoder). */
function utf8Text(bytes: Uint8Array): string {
  return decodeURIComponent(Array.from(bytes, (b) => `%${b.toString(16).padStart(2, '0')}`).join(''));
}

async function collect(files: AsyncIterable<ProjectFileBytes>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const file of files) out.set(file.path, utf8Text(file.bytes));
  return out;
}

/**
 * The SandboxFileActions contract (issue #17 item 8): a new file is empty and never replaces one;
 * a move takes files and folders to a free name (never over one), leaving nothing behind; exports
 * give every file not excluded, byte for byte, within their cap; no hostile path reaches outside.
 */
export function sandboxFileActionsContract(name: string, makeHarness: () => Promise<SandboxFileActionsHarness>): void {
  describe(`SandboxFileActions contract: ${name}`, () => {
    let h!: SandboxFileActionsHarness;
    const newProject = useSandboxHarness('file-actions', makeHarness, (ready) => (h = ready));

    it('creates an empty file with its parent folders, and never replaces a taken name', async () => {
      const id = await newProject();
      await h.host.createFile(id, 'src/new/empty.ts');
      expect(await h.host.readFile(id, 'src/new/empty.ts')).toBe('');
      await h.host.writeFile(id, 'src/new/empty.ts', 'kept');
      expect(await rejectionCode(h.host.createFile(id, 'src/new/empty.ts'))).toBe('EEXIST');
      expect(await rejectionCode(h.host.createFile(id, 'src/new'))).toBe('EEXIST');
      expect(await h.host.readFile(id, 'src/new/empty.ts')).toBe('kept');
    });

    it('writes bytes (an attached image) that an export gives back byte for byte, replacing a file', async () => {
      const id = await newProject();
      const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80]);
      await h.host.writeFile(id, 'public/attachments/logo.png', 'old');
      await h.host.writeFileBytes(id, 'public/attachments/logo.png', png);
      const exported = new Map<string, number[]>();
      for await (const file of h.host.exportFiles(id, { exclude: [], maxBytes: 1_000_000 })) exported.set(file.path, Array.from(file.bytes));
      expect(exported.get('public/attachments/logo.png')).toEqual(Array.from(png));
      for (const path of ['../outside.png', '/etc/x.png']) await expect(h.host.writeFileBytes(id, path, png)).rejects.toThrow();
    });

    it('moves a file and a folder with everything in it, creating the new parents', async () => {
      const id = await newProject();
      await h.host.writeFile(id, 'src/a.ts', 'A');
      await h.host.movePath(id, 'src/a.ts', 'src/lib/b.ts');
      expect(await h.host.readFile(id, 'src/lib/b.ts')).toBe('A');
      expect(await rejectionCode(h.host.readFile(id, 'src/a.ts'))).toBe('ENOENT');
      await h.host.writeFile(id, 'src/lib/deep/c.ts', 'C');
      await h.host.movePath(id, 'src/lib', 'lib2');
      expect(await h.host.readFile(id, 'lib2/b.ts')).toBe('A');
      expect(await h.host.readFile(id, 'lib2/deep/c.ts')).toBe('C');
      expect(await rejectionCode(h.host.readDirectory(id, 'src/lib'))).toBe('ENOENT');
    });

    it('refuses to move onto a taken name or from a missing one, changing nothing', async () => {
      const id = await newProject();
      await h.host.writeFile(id, 'one.ts', '1');
      await h.host.writeFile(id, 'two.ts', '2');
      expect(await rejectionCode(h.host.movePath(id, 'one.ts', 'two.ts'))).toBe('EEXIST');
      expect(await h.host.readFile(id, 'one.ts')).toBe('1');
      expect(await h.host.readFile(id, 'two.ts')).toBe('2');
      expect(await rejectionCode(h.host.movePath(id, 'missing.ts', 'three.ts'))).toBe('ENOENT');
    });

    it('refuses every hostile path on either side of a move, and for a new file', async () => {
      const id = await newProject();
      await h.host.writeFile(id, 'safe.ts', 'S');
      for (const hostile of HOSTILE_SANDBOX_PATHS.slice(0, 12)) {
        expect(await rejectionCode(h.host.movePath(id, 'safe.ts', hostile))).toMatch(/^SANDBOX\./);
        expect(await rejectionCode(h.host.movePath(id, hostile, 'x.ts'))).toMatch(/^SANDBOX\./);
        expect(await rejectionCode(h.host.createFile(id, hostile))).toMatch(/^SANDBOX\./);
      }
      expect(await h.host.readFile(id, 'safe.ts')).toBe('S');
    });

    it('exports every file not excluded, sorted by path, byte for byte', async () => {
      const id = await newProject();
      await h.host.writeFile(id, 'src/héllo.ts', 'export const x = "✓";\n');
      await h.host.writeFile(id, 'dist/out.js', 'built');
      await h.host.writeFile(id, '.env.local', 'SECRET=1');
      const files = await collect(h.host.exportFiles(id, { exclude: ['dist', '.env.local', 'node_modules'], maxBytes: 10 * 1024 * 1024 }));
      expect(files.get('src/héllo.ts')).toBe('export const x = "✓";\n');
      expect(files.has('package.json')).toBe(true);
      expect([...files.keys()].some((p) => p.startsWith('dist/') || p === '.env.local' || p.includes('node_modules'))).toBe(false);
      const paths = [...files.keys()];
      expect(paths).toEqual([...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    });

    it('refuses an export over its cap before the first file (SANDBOX.TOO_LARGE)', async () => {
      const id = await newProject();
      await h.host.writeFile(id, 'big.txt', 'x'.repeat(4096));
      const files = h.host.exportFiles(id, { exclude: ['node_modules'], maxBytes: 1024 });
      expect(await rejectionCode(collect(files))).toBe('SANDBOX.TOO_LARGE');
    });
  });
}

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DevServerStatus, SandboxHostEvent } from '../../sandbox/sandbox-dev-server.port.js';
import type { SandboxHost } from '../../sandbox/sandbox-host.port.js';
import { MAX_LISTING_CONTENT_BYTES, MAX_LISTING_ENTRIES_WITH_CONTENTS } from '../../sandbox/sandbox-limits.js';
import { MAX_PROJECT_NAME_BYTES, MAX_PROJECT_PATH_BYTES } from '../../sandbox/sandbox-path.js';

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

export interface SandboxHostHarness {
  readonly host: SandboxHost;
  /** False for a host that cannot run processes (commands then answer a clear failed result). */
  readonly runsCommands: boolean;
  close?(): Promise<void>;
}

/** Awaits the promise and answers the `code` it rejected with (undefined when it resolved). */
async function rejectionCode(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (e) {
    return (e as { code?: string }).code ?? 'UNCODED';
  }
}

/**
 * The SandboxHost contract (SPEC §7 Sandbox, §8, §9): a project's sandbox starts from the starter
 * template; files round-trip; the tree hides the §9 ignore list; no hostile path reaches outside
 * the project; commands report exit codes, stop at the timeout and cap their output; git commit →
 * history → restore keeps every later version.
 */
export function sandboxHostContract(name: string, makeHarness: () => Promise<SandboxHostHarness>): void {
  describe(`SandboxHost contract: ${name}`, () => {
    let h: SandboxHostHarness;
    let n = 0;
    const newProject = async (): Promise<string> => {
      const id = `contract-${++n}`;
      await h.host.ensure(id);
      return id;
    };

    // A real host may install the starter's dependencies first (once per template version).
    beforeAll(async () => {
      h = await makeHarness();
    }, 180_000);
    afterAll(async () => {
      await h.host.stopAll();
      await h.close?.();
    }, 30_000);

    it('creates the sandbox from the starter template once, then only describes it', async () => {
      const first = await h.host.ensure('contract-ensure');
      expect(first).toMatchObject({ projectId: 'contract-ensure', machineCreated: true });
      const names = (await h.host.readDirectory('contract-ensure', '.')).map((e) => e.name);
      expect(names).toEqual(expect.arrayContaining(['package.json', 'index.html', 'src', 'tsconfig.json']));
      expect(await h.host.readFile('contract-ensure', 'src/App.tsx')).toContain('export');
      const again = await h.host.ensure('contract-ensure');
      expect(again.machineCreated).toBe(false);
    });

    it('refuses a malformed sandbox id', async () => {
      await expect(h.host.ensure('../escape')).rejects.toThrow();
      await expect(h.host.readFile('.', 'package.json')).rejects.toThrow();
    });

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
      for (const workingDir of ['../..', '/etc', '%2e%2e']) {
        expect(await rejectionCode(h.host.runCommand(id, ['pwd'], { workingDir }))).toBe('SANDBOX.PATH_OUTSIDE');
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

    it('runs commands in the project (or says clearly it cannot)', async () => {
      const id = await newProject();
      const ls = await h.host.runCommand(id, ['ls'], { workingDir: 'src' });
      if (!h.runsCommands) {
        expect(ls.exitCode).not.toBe(0);
        expect(ls.stderr).not.toBe('');
        return;
      }
      expect(ls).toMatchObject({ exitCode: 0, timedOut: false, outputTruncated: false });
      expect(ls.stdout.split('\n')).toEqual(expect.arrayContaining(['App.tsx', 'main.tsx']));
      const failed = await h.host.runCommand(id, ['sh', '-c', 'echo oops >&2; exit 3']);
      expect(failed).toMatchObject({ exitCode: 3, stderr: 'oops\n', timedOut: false });
      const missing = await h.host.runCommand(id, ['definitely-not-a-command-kiln']);
      expect(missing.exitCode).not.toBe(0);
    });

    it('streams output to onOutput as it arrives: the same text the result holds, per stream', async () => {
      if (!h.runsCommands) return;
      const id = await newProject();
      const got = { stdout: '', stderr: '' };
      // The command waits for a file the test writes only once it has seen 'one': unless output
      // is streamed while the command runs, it would run into its timeout.
      const result = await h.host.runCommand(
        id,
        ['sh', '-c', 'echo one; echo oops >&2; while [ ! -f go ]; do sleep 0.05; done; printf "two ✓"'],
        {
          timeoutSeconds: 10,
          onOutput: (stream, text) => {
            if (stream === 'stdout' && got.stdout === '' && text.startsWith('one')) void h.host.writeFile(id, 'go', '');
            got[stream] += text;
          },
        },
      );
      expect(result).toMatchObject({ exitCode: 0, timedOut: false, stdout: 'one\ntwo ✓', stderr: 'oops\n' });
      expect(got).toEqual({ stdout: result.stdout, stderr: result.stderr });

      const capped = { stdout: '', stderr: '' };
      const big = await h.host.runCommand(id, ['sh', '-c', 'head -c 3000000 /dev/zero | tr "\\0" a'], {
        onOutput: (stream, text) => (capped[stream] += text),
      });
      expect(big.outputTruncated).toBe(true);
      expect(capped.stdout).toBe(big.stdout); // the cap applies to the stream too, marker included
    });

    it('stops a command at the timeout (the adapter tests time it)', async () => {
      if (!h.runsCommands) return;
      const id = await newProject();
      const result = await h.host.runCommand(id, ['sh', '-c', 'sleep 60 & sleep 60; wait'], { timeoutSeconds: 1 });
      expect(result.timedOut).toBe(true);
      expect(result.exitCode).not.toBe(0);
    });

    it('caps the output and says so', async () => {
      if (!h.runsCommands) return;
      const id = await newProject();
      const result = await h.host.runCommand(id, ['sh', '-c', 'head -c 3000000 /dev/zero | tr "\\0" a']);
      expect(result.outputTruncated).toBe(true);
      expect(result.stdout.length).toBeLessThan(3000000);
      expect(result.stdout).toMatch(/truncated/);
      expect(result.exitCode).toBe(0);
    });

    it('commits, lists history newest first and restores as a new version keeping later history', async () => {
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

    it('answers the dev server state at once (starting or running), one server per sandbox, and rejects without a sandbox', async () => {
      const id = await newProject();
      const first = await h.host.devServer(id);
      expect(['starting', 'running']).toContain(first.status);
      expect(first.socketPath === null || (typeof first.socketPath === 'string' && first.socketPath.startsWith('/'))).toBe(true);
      expect(typeof first.message).toBe('string');
      const second = await h.host.devServer(id);
      expect(['starting', 'running']).toContain(second.status);
      expect(second.socketPath).toBe(first.socketPath);
      await expect(h.host.devServer('contract-missing')).rejects.toThrow();
      await expect(h.host.restartDev('contract-missing')).rejects.toThrow();
    }, 60_000);

    it('tells subscribers about dev-server changes until they unsubscribe; cleanup and stopAll stop servers', async () => {
      const id = await newProject();
      const other = await newProject();
      const seen: SandboxHostEvent[] = [];
      const statuses = (sandboxId: string): DevServerStatus[] =>
        seen.filter((e) => e.sandboxId === sandboxId).map((e) => e.state.status);
      const unsubscribe = h.host.subscribe((e) => seen.push(e));
      const throwing = h.host.subscribe(() => {
        throw new Error('a broken listener');
      });
      try {
        await h.host.devServer(id);
        await h.host.devServer(other);
        expect(statuses(id).length).toBeGreaterThan(0);
        expect(['starting', 'running']).toContain(statuses(id)[0]);
        expect(seen.every((e) => e.type === 'dev-server')).toBe(true);

        await h.host.restartDev(id);
        expect(statuses(id)).toContain('stopped');
        expect(['starting', 'running']).toContain(statuses(id).at(-1));

        await h.host.cleanup(id);
        expect(statuses(id).at(-1)).toBe('stopped');

        await h.host.stopAll();
        expect(statuses(other).at(-1)).toBe('stopped');
        expect(['starting', 'running']).toContain((await h.host.devServer(other)).status);
      } finally {
        unsubscribe();
        throwing();
      }
      const count = seen.length;
      await h.host.restartDev(other);
      await h.host.stopAll();
      expect(seen.length).toBe(count);
    }, 60_000); // a real host starts and stops processes here

    it('removes everything on cleanup; the next ensure starts fresh', async () => {
      const id = await newProject();
      await h.host.writeFile(id, 'src/temp.ts', 'x');
      await h.host.cleanup(id);
      await expect(h.host.readFile(id, 'src/temp.ts')).rejects.toThrow();
      expect((await h.host.ensure(id)).machineCreated).toBe(true);
      await expect(h.host.readFile(id, 'src/temp.ts')).rejects.toThrow();
    });
  });
}

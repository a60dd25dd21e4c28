import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sandboxHostContract } from '@kiln/domain/contracts';
import { DEFAULT_BWRAP_PATH, LocalSandboxHost, MAX_READ_BYTES, SANDBOX_HOME, splitPlainWords } from './local-sandbox-host.adapter.js';
import { TEST_SANDBOX_CACHE_DIR, tempSandboxRoot } from './testing/sandbox-test-dirs.js';

const hasBwrap = existsSync(DEFAULT_BWRAP_PATH);
const CACHE_DIR = TEST_SANDBOX_CACHE_DIR;

const tempRoot = () => tempSandboxRoot();

sandboxHostContract(`LocalSandboxHost (${hasBwrap ? 'bubblewrap' : 'no bubblewrap'})`, async () => {
  const { root, close } = await tempRoot();
  const host = new LocalSandboxHost({ root, cacheDir: CACHE_DIR });
  await host.prepareTemplate();
  return { host, runsCommands: true, close };
});

sandboxHostContract('LocalSandboxHost without bubblewrap (argument vectors only)', async () => {
  const { root, close } = await tempRoot();
  const host = new LocalSandboxHost({ root, bwrapPath: null, cacheDir: CACHE_DIR });
  await host.prepareTemplate();
  return { host, runsCommands: true, close };
});

describe('LocalSandboxHost', () => {
  let root: string;
  let close: () => Promise<void>;
  let host: LocalSandboxHost;
  let n = 0;
  const project = async () => {
    const id = `p${++n}`;
    await host.ensure(id);
    return id;
  };

  beforeAll(async () => {
    ({ root, close } = await tempRoot());
    host = new LocalSandboxHost({ root, cacheDir: CACHE_DIR });
    await host.prepareTemplate();
  }, 180_000);
  afterAll(async () => {
    await host.stopAll();
    await close();
  });

  it('refuses symlinks that point outside the project, for reads, writes, listings and commands', async () => {
    const id = await project();
    const dir = path.join(root, id);
    await symlink('/etc', path.join(dir, 'etc-link'));
    await symlink('/etc/hostname', path.join(dir, 'hostname-link'));
    await symlink(path.join(root, 'nowhere-yet'), path.join(dir, 'dangling'));
    const outside = path.join(root, 'outside.txt');
    await writeFile(outside, 'original');
    await symlink(outside, path.join(dir, 'outside-link'));

    for (const p of ['etc-link/passwd', 'hostname-link', 'etc-link', 'outside-link']) {
      await expect(host.readFile(id, p)).rejects.toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE' });
    }
    await expect(host.writeFile(id, 'outside-link', 'pwned')).rejects.toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE' });
    await expect(host.writeFile(id, 'etc-link/kiln-test', 'pwned')).rejects.toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE' });
    await expect(host.writeFile(id, 'dangling', 'pwned')).rejects.toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE' });
    await expect(host.writeFile(id, 'dangling/deeper/x', 'pwned')).rejects.toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE' });
    await expect(host.readDirectory(id, 'etc-link')).rejects.toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE' });
    await expect(host.getTree(id, 'etc-link')).rejects.toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE' });
    await expect(host.createDirectory(id, 'etc-link/sub')).rejects.toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE' });
    await expect(host.deleteFile(id, 'etc-link/hostname')).rejects.toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE' });
    const cmd = await host.runCommand(id, ['ls'], { workingDir: 'etc-link' }).catch((e: { code?: string }) => e.code);
    expect(cmd).toBe('SANDBOX.PATH_OUTSIDE');
    expect(await readFile(outside, 'utf8')).toBe('original');
    expect(existsSync(path.join(root, 'nowhere-yet'))).toBe(false);

    // Listings show links without following them or reading through them.
    const listing = await host.readDirectory(id, '.', { includeContents: true });
    expect(listing.find((e) => e.name === 'outside-link')).toEqual({ name: 'outside-link', type: 'file' });
    const tree = await host.getTree(id, '.');
    expect(tree.find((e) => e.name === 'etc-link')).toEqual({ name: 'etc-link', type: 'file', path: 'etc-link' });

    // A link that stays inside the project is fine.
    await symlink('src/App.tsx', path.join(dir, 'app-link'));
    expect(await host.readFile(id, 'app-link')).toContain('export function App');

    // Deleting a link removes the link only, never its target.
    await host.deleteFile(id, 'app-link');
    await host.deleteFile(id, 'outside-link');
    expect(await host.readFile(id, 'src/App.tsx')).toContain('export function App');
    expect(await readFile(outside, 'utf8')).toBe('original');
    expect(existsSync('/etc/hostname') || existsSync('/etc/passwd')).toBe(true);
  });

  it('refuses links to a sibling project, links up to the sandboxes folder, symlinked parent folders and link chains', async () => {
    const id = await project();
    const sibling = await project();
    const dir = path.join(root, id);
    await host.writeFile(sibling, 'secret.txt', 'sibling secret');
    const outsideDir = path.join(root, 'outside-dir');
    await mkdir(outsideDir, { recursive: true });
    await symlink(path.join(root, sibling), path.join(dir, 'sibling-link')); // absolute
    await symlink(`../${sibling}`, path.join(dir, 'sibling-relative')); // relative
    await symlink('..', path.join(dir, 'up')); // the sandboxes folder
    await mkdir(path.join(dir, 'src', 'nested'), { recursive: true });
    await symlink(outsideDir, path.join(dir, 'src', 'nested', 'parent-link')); // a parent folder out
    await symlink('parent-link', path.join(dir, 'src', 'nested', 'chain')); // inside → a link out
    const refused = [
      'sibling-link/secret.txt',
      'sibling-relative/secret.txt',
      `up/${sibling}/secret.txt`,
      'up',
      'src/nested/parent-link/new.txt',
      'src/nested/chain/new.txt',
      'src/nested/chain',
    ];
    for (const p of refused) {
      await expect(host.readFile(id, p)).rejects.toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE' });
      await expect(host.writeFile(id, p, 'pwned')).rejects.toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE' });
      await expect(host.createDirectory(id, `${p}/sub`)).rejects.toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE' });
      await expect(host.readDirectory(id, p)).rejects.toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE' });
    }
    await expect(host.deleteFile(id, 'sibling-link/secret.txt')).rejects.toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE' });
    expect(await host.readFile(sibling, 'secret.txt')).toBe('sibling secret');
    expect(await readdir(outsideDir)).toEqual([]);
  });

  it('keeps the git repository out of the project folder (no planted hooks or config)', async () => {
    const id = await project();
    expect(existsSync(path.join(root, id, '.git'))).toBe(false);
    await host.writeFile(id, '.git/config', '[core]\n\thooksPath = /tmp/evil\n');
    await host.writeFile(id, 'a.txt', 'a');
    expect((await host.saveVersion(id, 'With a fake .git folder')).success).toBe(true);
    const history = await host.versionHistory(id);
    expect(history.map((c) => c.message)).toEqual(['With a fake .git folder', 'Initial version']);
    expect(history[1]?.filesChanged).toEqual(expect.arrayContaining(['package.json', 'src/App.tsx', 'index.html']));
    expect(history[1]?.filesChanged.some((f) => f.startsWith('node_modules'))).toBe(false);
  });

  it('gives commands none of the API secrets, only PATH, HOME (outside the project in the jail) and LANG', async () => {
    const id = await project();
    process.env['DATABASE_URL'] = 'postgres://secret@db/kiln';
    process.env['STRIPE_SECRET_KEY'] = 'sk_test_secret';
    try {
      const result = await host.runCommand(id, ['env']);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).not.toContain('DATABASE_URL');
      expect(result.stdout).not.toContain('STRIPE_SECRET_KEY');
      expect(result.stdout).not.toContain('secret');
      const names = result.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('=')[0]);
      expect(names.filter((v) => !['PATH', 'HOME', 'LANG', 'PWD', 'SHLVL', '_', 'OLDPWD'].includes(v ?? ''))).toEqual([]);
      expect(result.stdout).toContain(`HOME=${host.isolated ? SANDBOX_HOME : path.join(root, id)}`);
    } finally {
      delete process.env['DATABASE_URL'];
      delete process.env['STRIPE_SECRET_KEY'];
    }
  });

  it.each([
    ['with bubblewrap when installed', undefined],
    ['without bubblewrap', null],
  ] as const)('kills the whole process tree at the timeout, within the limit (%s)', async (_label, bwrapPath) => {
    const killer = new LocalSandboxHost({ root, bwrapPath, cacheDir: CACHE_DIR });
    const id = await project();
    const marker = `60.${Date.now() % 100000}`;
    const started = performance.now();
    const result = await killer.runCommand(id, ['sh', '-c', `sleep ${marker} & (sleep ${marker} &) ; sleep ${marker}`], {
      timeoutSeconds: 1,
    });
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ timedOut: true, exitCode: 124 });
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(3000);
    await new Promise((r) => setTimeout(r, 300));
    const ps = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    expect(ps.split('\n').filter((l) => l.includes(`sleep ${marker}`))).toEqual([]);
  });

  it.each([
    ['with bubblewrap when installed', undefined],
    ['without bubblewrap', null],
  ] as const)('stops the whole process tree when its signal aborts (Ctrl+C): exit code 130, output kept (%s)', async (_label, bwrapPath) => {
    const stopper = new LocalSandboxHost({ root, bwrapPath, cacheDir: CACHE_DIR });
    const id = await project();
    const marker = `61.${Date.now() % 100000}`;
    const controller = new AbortController();
    let streamed = '';
    const started = performance.now();
    const running = stopper.runCommand(id, ['sh', '-c', `echo started; sleep ${marker} & sleep ${marker}`], {
      timeoutSeconds: 60,
      signal: controller.signal,
      onOutput: (_stream, text) => {
        streamed += text;
        if (text.includes('started')) controller.abort();
      },
    });
    const result = await running;
    expect(result).toMatchObject({ exitCode: 130, interrupted: true, timedOut: false, stdout: 'started\n' });
    expect(result.stderr).toMatch(/\[interrupted\]/);
    expect(streamed).toBe(`${result.stdout}${result.stderr}`);
    expect(performance.now() - started).toBeLessThan(5000);
    await new Promise((r) => setTimeout(r, 300));
    const ps = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    expect(ps.split('\n').filter((l) => l.includes(`sleep ${marker}`))).toEqual([]);
    // A signal aborted before the start runs nothing.
    expect(await stopper.runCommand(id, ['touch', 'never'], { signal: AbortSignal.abort() })).toMatchObject({ exitCode: 130, interrupted: true });
    expect(existsSync(path.join(root, id, 'never'))).toBe(false);
  });

  it('streams the timeout note too, and a throwing onOutput listener does not break the command', async () => {
    const id = await project();
    let streamed = '';
    const timedOut = await host.runCommand(id, ['sh', '-c', 'echo started; sleep 30'], {
      timeoutSeconds: 1,
      onOutput: (_stream, text) => (streamed += text),
    });
    expect(timedOut.timedOut).toBe(true);
    expect(streamed).toBe(`${timedOut.stdout}${timedOut.stderr}`);
    expect(streamed).toMatch(/stopped after 1 s/);
    const result = await host.runCommand(id, ['echo', 'fine'], {
      onOutput: () => {
        throw new Error('listener failure');
      },
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'fine\n' });
  });

  it('leaves nothing behind when creation fails, so the next ensure retries', async () => {
    const broken = new LocalSandboxHost({ root, templateDir: path.join(root, 'no-such-template'), cacheDir: null });
    await expect(broken.ensure('broken')).rejects.toThrow();
    expect(existsSync(path.join(root, 'broken'))).toBe(false);
    expect((await host.ensure('broken')).machineCreated).toBe(true);
  });

  it('refuses to read a file over the size limit', async () => {
    const id = await project();
    await writeFile(path.join(root, id, 'big.bin'), Buffer.alloc(MAX_READ_BYTES + 1));
    await expect(host.readFile(id, 'big.bin')).rejects.toThrow(/too large/);
  });

  it('answers the default 30 s timeout for a quick command without waiting for it', async () => {
    const id = await project();
    const result = await host.runCommand(id, ['true']);
    expect(result).toEqual({ exitCode: 0, stdout: '', stderr: '', timedOut: false, outputTruncated: false });
  });

  (hasBwrap ? describe : describe.skip)('inside bubblewrap', () => {
    it('runs shell lines, writes only inside the project, has no network and cannot see other projects', async () => {
      const id = await project();
      const other = await project();
      await host.writeFile(other, 'secret.txt', 'other project');
      const result = await host.runCommand(
        id,
        [
          'echo hi > made-here.txt',
          'touch /etc/kiln-escape 2>/dev/null && echo WROTE-ETC',
          `cat ${path.join(root, other, 'secret.txt')} 2>/dev/null && echo READ-OTHER`,
          `ls ${path.join(root, '.kiln-git')} 2>/dev/null | grep -q . && echo SAW-GIT`,
          '(exec 3<>/dev/tcp/1.1.1.1/80) 2>/dev/null && echo NETWORK',
          `cat ${path.join(process.cwd(), 'package.json')} 2>/dev/null && echo READ-API-CHECKOUT`,
          `ls -A ${homedir()} 2>/dev/null | grep -q . && echo SAW-API-HOME`,
          'echo done',
        ].join('; '),
      );
      expect(result.stdout).toBe('done\n');
      expect(await host.readFile(id, 'made-here.txt')).toBe('hi\n');
      expect(existsSync('/etc/kiln-escape')).toBe(false);
    });

    it('keeps the exit code of a shell line', async () => {
      const id = await project();
      expect((await host.runCommand(id, 'exit 7')).exitCode).toBe(7);
      expect((await host.runCommand(id, 'ls src | sort')).stdout).toBe('App.tsx\ncomponents\nindex.css\nlib\nmain.tsx\n');
    });
  });

  it('without bubblewrap runs plain command lines as words and refuses shell syntax', async () => {
    const { root: bare, close: closeBare } = await tempRoot();
    try {
      const plain = new LocalSandboxHost({ root: bare, bwrapPath: null, cacheDir: CACHE_DIR });
      await plain.ensure('p');
      expect((await plain.runCommand('p', 'ls "src"')).stdout).toBe('App.tsx\ncomponents\nindex.css\nlib\nmain.tsx\n');
      const refused = await plain.runCommand('p', 'ls; cat /etc/passwd');
      expect(refused.exitCode).toBe(126);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(/bubblewrap/);
    } finally {
      await closeBare();
    }
  });

  it('splits plain words and rejects shell syntax', () => {
    expect(splitPlainWords('npm run build -- --mode "dev x"')).toEqual(['npm', 'run', 'build', '--', '--mode', 'dev x']);
    for (const line of ['a | b', 'a && b', 'a; b', 'echo $HOME', 'echo `id`', 'a > f', 'echo $(id)', 'ls *']) {
      expect(splitPlainWords(line)).toBeNull();
    }
  });
});

import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  MAX_LISTING_ENTRIES_WITH_CONTENTS,
  MAX_TREE_ENTRIES,
  sandboxDiskLimit,
  SandboxLimitReached,
  sandboxLinkLoop,
  SandboxPathRefused,
  sandboxTooLarge,
} from '@kiln/domain';
import { type TestApp, type TestUser, newUser, startTestApp } from '../testing/e2e.js';
import { SandboxFeed } from './sandbox-feed.js';
import { SseClient } from './testing/sse-client.js';
import { ScriptedSandboxHost } from './testing/scripted-sandbox-host.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('sandbox API (HTTP)', () => {
  let t: TestApp;
  let host: ScriptedSandboxHost;

  beforeAll(async () => {
    host = new ScriptedSandboxHost();
    t = await startTestApp({ overrides: { sandboxHost: host, sandboxFeedHeartbeatMs: 150 } });
  });

  afterAll(async () => {
    await t.close();
  });

  const baseUrl = () => `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;

  const createProject = async (user: TestUser): Promise<string> => {
    const response = await t.http().post('/api/projects').set(user.auth).send({ name: 'Sandbox app' });
    expect(response.status).toBe(201);
    return response.body.id as string;
  };

  /** A user with a project whose sandbox exists. */
  const ready = async (): Promise<{ user: TestUser; id: string; api: string }> => {
    const user = newUser();
    const id = await createProject(user);
    await t.http().post(`/api/sandbox/${id}/ensure`).set(user.auth).expect(200);
    return { user, id, api: `/api/sandbox/${id}` };
  };

  const previewUrl = (id: string) => new RegExp(`^http://${id}\\.preview\\.localhost:3000/__kiln/auth\\?token=[\\w.-]+&next=%2F$`);

  describe('ensure and info', () => {
    it('creates the sandbox once and describes it with a preview URL', async () => {
      const user = newUser();
      const id = await createProject(user);
      const first = await t.http().post(`/api/sandbox/${id}/ensure`).set(user.auth);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        status: 'running',
        message: expect.any(String),
        app_name: id,
        project_id: id,
        url: expect.stringMatching(previewUrl(id)),
        ipv4_address: null,
        ipv6_address: null,
        machine_created: true,
        isolated: true,
      });
      const again = await t.http().post(`/api/sandbox/${id}/ensure`).set(user.auth);
      expect(again.body.machine_created).toBe(false);
    });

    it('info is 404 SANDBOX.NOT_FOUND before ensure, then the sandbox', async () => {
      const user = newUser();
      const id = await createProject(user);
      const before = await t.http().get(`/api/sandbox/${id}/info`).set(user.auth);
      expect(before.status).toBe(404);
      expect(before.body).toMatchObject({ code: 'SANDBOX.NOT_FOUND', detail: 'This project has no sandbox yet' });
      await t.http().post(`/api/sandbox/${id}/ensure`).set(user.auth).expect(200);
      const after = await t.http().get(`/api/sandbox/${id}/info`).set(user.auth);
      expect(after.status).toBe(200);
      expect(after.body).toMatchObject({ status: 'running', project_id: id, machine_created: false, url: expect.stringMatching(previewUrl(id)) });
    });

    it('reports the dev server state (starting) in status and message', async () => {
      const { user, id, api } = await ready();
      host.devStates.set(id, { status: 'starting', socketPath: '/run/kiln/dev.sock', message: 'Installing…' });
      const response = await t.http().get(`${api}/info`).set(user.auth);
      expect(response.body).toMatchObject({ status: 'starting', message: 'Installing…' });
      host.devStates.delete(id);
    });

    it('needs a bearer token', async () => {
      const response = await t.http().post(`/api/sandbox/${randomUUID()}/ensure`);
      expect(response.status).toBe(401);
    });
  });

  describe('files', () => {
    it('writes, reads, lists and deletes files', async () => {
      const { user, api } = await ready();
      await t.http().post(`${api}/write-file`).set(user.auth).send({ path: 'src/lib/util.ts', content: 'export const x = 1;\n' }).expect(200, { success: true });
      const read = await t.http().get(`${api}/read-file`).query({ path: 'src/lib/util.ts' }).set(user.auth);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ path: 'src/lib/util.ts', content: 'export const x = 1;\n' });
      // A '..' that stays inside is folded away.
      const folded = await t.http().get(`${api}/read-file`).query({ path: 'src/../src/lib/./util.ts' }).set(user.auth);
      expect(folded.body).toEqual({ path: 'src/lib/util.ts', content: 'export const x = 1;\n' });

      const listing = await t.http().get(`${api}/read-directory`).query({ path: 'src', include_contents: 'true', ignore_patterns: 'main.tsx, *.md' }).set(user.auth);
      expect(listing.status).toBe(200);
      expect(listing.body).toEqual([
        { name: 'lib', type: 'directory' },
        { name: 'App.tsx', type: 'file', content: expect.stringContaining('Welcome') },
      ]);
      const plain = await t.http().get(`${api}/read-directory`).set(user.auth);
      expect(plain.body).toContainEqual({ name: 'package.json', type: 'file' });

      await t.http().delete(`${api}/delete-file`).query({ path: 'src/lib/util.ts' }).set(user.auth).expect(200, { success: true });
      const gone = await t.http().get(`${api}/read-file`).query({ path: 'src/lib/util.ts' }).set(user.auth);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ code: 'SANDBOX.FILE_NOT_FOUND', detail: 'No such file or folder: src/lib/util.ts', path: 'src/lib/util.ts' });
      const deleteAgain = await t.http().delete(`${api}/delete-file`).query({ path: 'src/lib/util.ts' }).set(user.auth);
      expect(deleteAgain.status).toBe(404);
    });

    it('accepts a file far above the default 100 kB body limit, and refuses a body over 8 MiB (413)', async () => {
      const { user, api } = await ready();
      const big = 'x'.repeat(2 * 1024 * 1024);
      await t.http().post(`${api}/write-file`).set(user.auth).send({ path: 'big.txt', content: big }).expect(200);
      const read = await t.http().get(`${api}/read-file`).query({ path: 'big.txt' }).set(user.auth);
      expect(read.body.content).toHaveLength(big.length);
      const huge = await t.http().post(`${api}/write-file`).set(user.auth).send({ path: 'huge.txt', content: 'y'.repeat(9 * 1024 * 1024) });
      expect(huge.status).toBe(413);
      expect(huge.body).toEqual({ code: 'PAYLOAD_TOO_LARGE', detail: 'body: is too large' });
      const broken = await t.http().post(`${api}/write-file`).set(user.auth).set('Content-Type', 'application/json').send('{"path": "a.txt", ');
      expect(broken.status).toBe(400);
      expect(broken.body).toEqual({ code: 'VALIDATION_FAILED', detail: 'body: is not valid JSON' });
      // Other routes keep the default limit.
      const longCommit = await t.http().post(`${api}/git/commit`).set(user.auth).send({ message: 'z'.repeat(200 * 1024) });
      expect(longCommit.status).toBe(413);
    });

    it('creates folders and returns the tree without ignored names', async () => {
      const { user, api } = await ready();
      await t.http().post(`${api}/create-directory`).set(user.auth).send({ path: 'src/components/ui' }).expect(200, { success: true });
      await t.http().post(`${api}/write-file`).set(user.auth).send({ path: '.env', content: 'SECRET=1' }).expect(200);
      await t.http().post(`${api}/write-file`).set(user.auth).send({ path: 'node_modules/x/index.js', content: '' }).expect(200);
      const tree = await t.http().get(`${api}/get-tree`).set(user.auth);
      expect(tree.status).toBe(200);
      const names = (tree.body as Array<{ name: string }>).map((e) => e.name);
      expect(names).toEqual(['src', 'index.html', 'package.json', 'tsconfig.json']);
      const src = (tree.body as Array<{ name: string; children?: unknown[] }>)[0];
      expect(src?.children).toContainEqual({ name: 'components', type: 'directory', path: 'src/components', children: [{ name: 'ui', type: 'directory', path: 'src/components/ui', children: [] }] });
      const everything = await t.http().get(`${api}/get-tree`).query({ ignore: '' }).set(user.auth);
      expect((everything.body as Array<{ name: string }>).map((e) => e.name)).toEqual(expect.arrayContaining(['node_modules', '.env']));
      const custom = await t.http().get(`${api}/get-tree`).query({ path: 'src', ignore: 'components,*.tsx' }).set(user.auth);
      expect(custom.body).toEqual([]);
    });

    it('runs commands (the in-memory host cannot: exit 126)', async () => {
      const { user, api } = await ready();
      const response = await t.http().post(`${api}/run-command`).set(user.auth).send({ command: 'ls -la', timeout: 5, working_dir: 'src' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ exit_code: 126, stdout: '', stderr: expect.stringContaining('cannot run'), timed_out: false, output_truncated: false, interrupted: false });
      const missingDir = await t.http().post(`${api}/run-command`).set(user.auth).send({ command: 'ls', working_dir: 'nope' });
      expect(missingDir.status).toBe(200); // the in-memory host does not check the folder exists
    });

    it('cleanup removes the sandbox', async () => {
      const { user, api } = await ready();
      await t.http().delete(`${api}/cleanup`).set(user.auth).expect(200, { success: true });
      const info = await t.http().get(`${api}/info`).set(user.auth);
      expect(info.body.code).toBe('SANDBOX.NOT_FOUND');
      const read = await t.http().get(`${api}/read-file`).query({ path: 'index.html' }).set(user.auth);
      expect(read.status).toBe(404);
      expect(read.body.code).toBe('SANDBOX.NOT_FOUND');
    });

    it('answers over-long paths and link loops 400 with a clear code, never 500 (issue #12 item 9)', async () => {
      const { user, api } = await ready();
      const long = `src/${'a'.repeat(4091)}`; // 4,095 characters
      const read = await t.http().get(`${api}/read-file`).query({ path: long }).set(user.auth);
      expect(read.status).toBe(400);
      expect(read.body).toMatchObject({ code: 'SANDBOX.PATH_TOO_LONG', detail: 'Path is too long: at most 1024 bytes', part: 'path', limit_bytes: 1024 });
      expect(read.body.path.length).toBeLessThanOrEqual(201); // echoed cut short
      const name = await t.http().post(`${api}/write-file`).set(user.auth).send({ path: `src/${'n'.repeat(300)}.ts`, content: 'x' });
      expect([name.status, name.body.code, name.body.part]).toEqual([400, 'SANDBOX.PATH_TOO_LONG', 'name']);
      for (const [method, route] of [['get', 'read-directory'], ['get', 'get-tree'], ['delete', 'delete-file']] as const) {
        const response = await t.http()[method](`${api}/${route}`).query({ path: long }).set(user.auth);
        expect([route, response.status, response.body.code]).toEqual([route, 400, 'SANDBOX.PATH_TOO_LONG']);
      }
      const mkdir = await t.http().post(`${api}/create-directory`).set(user.auth).send({ path: long });
      expect([mkdir.status, mkdir.body.code]).toEqual([400, 'SANDBOX.PATH_TOO_LONG']);

      // What a real host rejects with once it walks the path on disk: coded refusals, or the system's own errors.
      const cases: Array<[unknown, number, string]> = [
        [new SandboxPathRefused(sandboxLinkLoop('loop/x')), 400, 'SANDBOX.LINK_LOOP'],
        [Object.assign(new Error('ELOOP: too many symbolic links'), { code: 'ELOOP' }), 400, 'SANDBOX.LINK_LOOP'],
        [Object.assign(new Error('ENAMETOOLONG: name too long'), { code: 'ENAMETOOLONG' }), 400, 'SANDBOX.PATH_TOO_LONG'],
        [Object.assign(new Error('EFTYPE: a FIFO'), { code: 'EFTYPE' }), 400, 'SANDBOX.NOT_A_FILE'],
        [new SandboxLimitReached(sandboxTooLarge('file-bytes', 10)), 413, 'SANDBOX.TOO_LARGE'],
      ];
      try {
        for (const [failure, status, code] of cases) {
          host.fileFailure = failure;
          const response = await t.http().get(`${api}/read-file`).query({ path: 'loop/x' }).set(user.auth);
          expect([response.status, response.body.code]).toEqual([status, code]);
          expect(response.body.detail).not.toMatch(/ELOOP|ENAMETOOLONG|EFTYPE/); // the host's own words stay in the log
        }
        host.fileFailure = new SandboxLimitReached(sandboxDiskLimit(1000, 1200));
        const full = await t.http().post(`${api}/write-file`).set(user.auth).send({ path: 'x.txt', content: 'x' });
        expect(full.status).toBe(413);
        expect(full.body).toEqual({ code: 'SANDBOX.DISK_LIMIT', detail: expect.stringContaining('disk limit'), limit_bytes: 1000, would_be_bytes: 1200 });
      } finally {
        host.fileFailure = null;
      }
    });

    it('answers 413 SANDBOX.TOO_LARGE for a listing with contents or a tree over its caps, never a partial answer', async () => {
      const { user, id, api } = await ready();
      for (let i = 0; i <= MAX_LISTING_ENTRIES_WITH_CONTENTS; i++) await host.inner.writeFile(id, `many/f${i}.txt`, 'x');
      const listing = await t.http().get(`${api}/read-directory`).query({ path: 'many', include_contents: 'true' }).set(user.auth);
      expect(listing.status).toBe(413);
      expect(listing.body).toEqual({
        code: 'SANDBOX.TOO_LARGE',
        detail: `The folder has too many entries to list: at most ${MAX_LISTING_ENTRIES_WITH_CONTENTS}`,
        cap: 'listing-entries',
        limit: MAX_LISTING_ENTRIES_WITH_CONTENTS,
      });
      const names = await t.http().get(`${api}/read-directory`).query({ path: 'many' }).set(user.auth);
      expect(names.body).toHaveLength(MAX_LISTING_ENTRIES_WITH_CONTENTS + 1);

      for (let i = 0; i < MAX_TREE_ENTRIES; i++) await host.inner.writeFile(id, `wide/${i % 100}/f${i}`, '');
      const tree = await t.http().get(`${api}/get-tree`).set(user.auth);
      expect(tree.status).toBe(413);
      expect(tree.body).toMatchObject({ code: 'SANDBOX.TOO_LARGE', cap: 'tree-entries', limit: MAX_TREE_ENTRIES });
      const part = await t.http().get(`${api}/get-tree`).query({ path: 'wide/7' }).set(user.auth);
      expect(part.status).toBe(200);
      expect(part.body).toHaveLength(MAX_TREE_ENTRIES / 100);
    }, 60_000);

    it('refuses to write or delete the project root', async () => {
      const { user, api } = await ready();
      const write = await t.http().post(`${api}/write-file`).set(user.auth).send({ path: '.', content: 'x' });
      expect(write.status).toBe(400);
      expect(write.body.code).toBe('VALIDATION_FAILED');
      const remove = await t.http().delete(`${api}/delete-file`).query({ path: 'src/..' }).set(user.auth);
      expect(remove.status).toBe(400);
      expect(remove.body).toEqual({ code: 'VALIDATION_FAILED', detail: 'path: cannot be the project root (use cleanup)' });
    });
  });

  describe('history, errors and the dev server', () => {
    it('commits, lists history newest first and restores a version as a new commit', async () => {
      const { user, api } = await ready();
      const nothing = await t.http().post(`${api}/git/commit`).set(user.auth).send({ message: 'Nothing' });
      expect(nothing.body).toEqual({ success: false, message: 'Nothing to commit' });
      await t.http().post(`${api}/write-file`).set(user.auth).send({ path: 'src/App.tsx', content: 'v2' }).expect(200);
      const commit = await t.http().post(`${api}/git/commit`).set(user.auth).send({ message: 'Second' });
      expect(commit.status).toBe(200);
      expect(commit.body).toEqual({ success: true, message: 'Second', hash: expect.stringMatching(/^[0-9a-f]{40}$/) });
      const history = await t.http().get(`${api}/git/history`).set(user.auth);
      expect(history.status).toBe(200);
      expect(history.body).toEqual([
        { hash: commit.body.hash, message: 'Second', date: expect.stringMatching(ISO), files_changed: ['src/App.tsx'] },
        { hash: expect.any(String), message: 'Initial version', date: expect.stringMatching(ISO), files_changed: expect.arrayContaining(['package.json']) },
      ]);
      const initial = (history.body as Array<{ hash: string }>)[1]?.hash ?? '';
      const restore = await t.http().post(`${api}/git/restore`).set(user.auth).send({ commitHash: initial.slice(0, 40).toUpperCase() });
      expect(restore.body).toMatchObject({ success: true, message: expect.stringMatching(/^Restored version/), hash: expect.any(String) });
      const read = await t.http().get(`${api}/read-file`).query({ path: 'src/App.tsx' }).set(user.auth);
      expect(read.body.content).toContain('Welcome');
      const unknown = await t.http().post(`${api}/git/restore`).set(user.auth).send({ commitHash: 'abcdef1' });
      expect(unknown.body).toEqual({ success: false, message: 'Unknown version: abcdef1' });
    });

    it('find-errors maps the scan', async () => {
      const { user, api } = await ready();
      host.scan = {
        errors: [{ message: "Cannot find name 'x'", file: 'src/App.tsx', line: 3, column: 7, severity: 'error', stack: 'hidden' }],
        errorCount: 1,
        warningCount: 0,
      };
      try {
        const response = await t.http().post(`${api}/find-errors`).set(user.auth).send({});
        expect(response.status).toBe(200);
        expect(response.body).toEqual({
          errors: [{ message: "Cannot find name 'x'", file: 'src/App.tsx', line: 3, column: 7, severity: 'error' }],
          error_count: 1,
          warning_count: 0,
          status: 'checked',
        });
      } finally {
        host.scan = null;
      }
    });

    it('restart-dev answers the dev server status with a preview URL', async () => {
      const { user, id, api } = await ready();
      const response = await t.http().post(`${api}/restart-dev`).set(user.auth);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 'running', message: expect.any(String), url: expect.stringMatching(previewUrl(id)) });
      const missing = await t.http().post(`/api/sandbox/${await createProject(user)}/restart-dev`).set(user.auth);
      expect(missing.body.code).toBe('SANDBOX.NOT_FOUND');
    });
  });

  describe('SPEC §8 fallbacks', () => {
    it('history failure answers [], commit and restore failures success: false, a failed scan zero counts', async () => {
      const { user, api } = await ready();
      host.failGit = true;
      try {
        const history = await t.http().get(`${api}/git/history`).set(user.auth);
        expect(history.status).toBe(200);
        expect(history.body).toEqual([]);
        const commit = await t.http().post(`${api}/git/commit`).set(user.auth).send({ message: 'x' });
        expect(commit.body).toEqual({ success: false, message: 'Could not save this version' });
        const restore = await t.http().post(`${api}/git/restore`).set(user.auth).send({ commitHash: 'abcd' });
        expect(restore.body).toEqual({ success: false, message: 'Could not restore this version' });
      } finally {
        host.failGit = false;
      }
      // The in-memory host has no compiler: its scan rejects. Zero counts, but said to be unchecked.
      const scan = await t.http().post(`${api}/find-errors`).set(user.auth).send({});
      expect(scan.status).toBe(200);
      expect(scan.body).toEqual({ errors: [], error_count: 0, warning_count: 0, status: 'unavailable', unavailable_reason: 'The check failed unexpectedly on the server.' });
    });

    it('without a sandbox, history and find-errors are 404 SANDBOX.NOT_FOUND, not a fallback', async () => {
      const user = newUser();
      const id = await createProject(user);
      expect((await t.http().get(`/api/sandbox/${id}/git/history`).set(user.auth)).body.code).toBe('SANDBOX.NOT_FOUND');
      expect((await t.http().post(`/api/sandbox/${id}/find-errors`).set(user.auth).send({})).body.code).toBe('SANDBOX.NOT_FOUND');
    });
  });

  describe('ownership', () => {
    const ROUTES: Array<[string, 'get' | 'post' | 'delete', string, Record<string, unknown> | null]> = [
      ['ensure', 'post', 'ensure', null],
      ['info', 'get', 'info', null],
      ['read-file', 'get', 'read-file?path=index.html', null],
      ['write-file', 'post', 'write-file', { path: 'a.txt', content: 'x' }],
      ['delete-file', 'delete', 'delete-file?path=index.html', null],
      ['read-directory', 'get', 'read-directory', null],
      ['get-tree', 'get', 'get-tree', null],
      ['run-command', 'post', 'run-command', { command: 'ls' }],
      ['create-directory', 'post', 'create-directory', { path: 'x' }],
      ['cleanup', 'delete', 'cleanup', null],
      ['git/commit', 'post', 'git/commit', { message: 'x' }],
      ['git/history', 'get', 'git/history', null],
      ['git/restore', 'post', 'git/restore', { commitHash: 'abcd' }],
      ['find-errors', 'post', 'find-errors', {}],
      ['restart-dev', 'post', 'restart-dev', null],
      ['events', 'get', 'events', null],
    ];

    it.each(ROUTES)("another user gets 404 PROJECTS.NOT_FOUND on %s, and the owner's sandbox is untouched", async (_name, method, path, body) => {
      const { user, api } = await ready();
      const stranger = newUser();
      const request = t.http()[method](`${api}/${path}`).set(stranger.auth);
      const response = body === null ? await request : await request.send(body);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: 'PROJECTS.NOT_FOUND', detail: expect.any(String) });
      const read = await t.http().get(`${api}/read-file`).query({ path: 'index.html' }).set(user.auth);
      expect(read.status).toBe(200);
    });

    it('an unknown project, a deleted one and a non-UUID id answer the same 404', async () => {
      const { user, id, api } = await ready();
      expect((await t.http().get(`/api/sandbox/${randomUUID()}/info`).set(user.auth)).body.code).toBe('PROJECTS.NOT_FOUND');
      expect((await t.http().get(`/api/sandbox/not-a-uuid/info`).set(user.auth)).body.code).toBe('PROJECTS.NOT_FOUND');
      await t.http().delete(`/api/projects/${id}`).set(user.auth).expect(204);
      expect((await t.http().get(`${api}/info`).set(user.auth)).body.code).toBe('PROJECTS.NOT_FOUND');
    });
  });

  describe('hostile paths', () => {
    const OUTSIDE: Array<[string, string]> = [
      ['../etc/passwd', 'parent-escape'],
      ['src/../../etc/passwd', 'parent-escape'],
      ['/etc/passwd', 'absolute'],
      ['~/.ssh/id_rsa', 'absolute'],
      ['C:/Windows', 'absolute'],
      ['%2e%2e/%2e%2e/etc/passwd', 'encoded'],
      ['..%2F..%2Fetc', 'encoded'],
      ['a\\..\\..\\b', 'backslash'],
      ['a\u0000b', 'nul-or-control'],
    ];

    it.each(OUTSIDE)('read-file ?path=%p → 400 SANDBOX.PATH_OUTSIDE (%s)', async (path, reason) => {
      const { user, api } = await ready();
      const response = await t.http().get(`${api}/read-file`).query({ path }).set(user.auth);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'SANDBOX.PATH_OUTSIDE', detail: expect.stringContaining('outside the project'), path, reason });
    });

    it('refuses URL-encoded escapes in raw query strings (decoded once by the server)', async () => {
      const { user, api } = await ready();
      for (const raw of ['..%2F..%2Fetc%2Fpasswd', '%2Fetc%2Fpasswd', '%252e%252e%252fetc', 'a%5C..%5C..%5Cb', 'x%00y', '%2e%2e']) {
        const response = await t.http().get(`${api}/read-file?path=${raw}`).set(user.auth);
        expect([response.status, response.body.code]).toEqual([400, 'SANDBOX.PATH_OUTSIDE']);
      }
    });

    it('every path-taking route refuses a path outside the project', async () => {
      const { user, api } = await ready();
      const responses = await Promise.all([
        t.http().post(`${api}/write-file`).set(user.auth).send({ path: '../escape.txt', content: 'x' }),
        t.http().delete(`${api}/delete-file`).query({ path: '../../x' }).set(user.auth),
        t.http().get(`${api}/read-directory`).query({ path: '..' }).set(user.auth),
        t.http().get(`${api}/get-tree`).query({ path: 'src/../..' }).set(user.auth),
        t.http().post(`${api}/create-directory`).set(user.auth).send({ path: '/tmp/kiln' }),
        t.http().post(`${api}/run-command`).set(user.auth).send({ command: 'ls', working_dir: '../' }),
      ]);
      for (const response of responses) expect([response.status, response.body.code]).toEqual([400, 'SANDBOX.PATH_OUTSIDE']);
    });

    it('a hostile path is refused even before the sandbox exists', async () => {
      const user = newUser();
      const id = await createProject(user);
      const response = await t.http().get(`/api/sandbox/${id}/read-file`).query({ path: '../x' }).set(user.auth);
      expect(response.body.code).toBe('SANDBOX.PATH_OUTSIDE');
    });
  });

  describe('validation', () => {
    const INVALID: Array<[string, 'get' | 'post' | 'delete', string, object | null, string]> = [
      ['read-file without path', 'get', 'read-file', null, 'path: is required'],
      ['read-file with two paths', 'get', 'read-file?path=a&path=b', null, 'path: must be a string'],
      ['read-file with a path over 4096', 'get', `read-file?path=${'a'.repeat(4097)}`, null, 'path: must be shorter than or equal to 4096 characters'],
      ['write-file without content', 'post', 'write-file', { path: 'a.txt' }, 'content: is required'],
      ['write-file with numeric content', 'post', 'write-file', { path: 'a.txt', content: 5 }, 'content: must be a string'],
      ['write-file with an unknown field', 'post', 'write-file', { path: 'a.txt', content: '', mode: 777 }, 'mode: is not allowed'],
      ['read-directory include_contents=yes', 'get', 'read-directory?include_contents=yes', null, 'include_contents: must be one of the following values: true, false'],
      ['read-directory ignore with a slash', 'get', 'read-directory?ignore_patterns=src/x', null, "ignore_patterns: each item must be a name or '*.ext' (no slashes)"],
      ['get-tree with an unknown query', 'get', 'get-tree?depth=3', null, 'depth: is not allowed'],
      ['run-command with an empty command', 'post', 'run-command', { command: '' }, 'command: should not be empty'],
      ['run-command with a huge command', 'post', 'run-command', { command: 'x'.repeat(10_001) }, 'command: must be shorter than or equal to 10000 characters'],
      ['run-command with timeout 0', 'post', 'run-command', { command: 'ls', timeout: 0 }, 'timeout: must not be less than 1'],
      ['run-command with timeout 301', 'post', 'run-command', { command: 'ls', timeout: 301 }, 'timeout: must not be greater than 300'],
      ['run-command with timeout 1.5', 'post', 'run-command', { command: 'ls', timeout: 1.5 }, 'timeout: must be an integer number'],
      ['run-command with timeout "30"', 'post', 'run-command', { command: 'ls', timeout: '30' }, 'timeout: must be an integer number'],
      ['run-command with a bad command_id', 'post', 'run-command', { command: 'ls', command_id: 'a b' }, 'command_id: must be 1 to 64 letters, digits, _ or -'],
      ['run-command with a long command_id', 'post', 'run-command', { command: 'ls', command_id: 'a'.repeat(65) }, 'command_id: must be 1 to 64 letters, digits, _ or -'],
      ['git/commit without message', 'post', 'git/commit', {}, 'message: is required'],
      ['git/restore with a non-hex hash', 'post', 'git/restore', { commitHash: 'HEAD~1' }, 'commitHash: must be 4 to 40 hexadecimal digits'],
      ['git/restore with a 41-digit hash', 'post', 'git/restore', { commitHash: 'a'.repeat(41) }, 'commitHash: must be 4 to 40 hexadecimal digits'],
      ['create-directory with an empty path', 'post', 'create-directory', { path: '' }, 'path: should not be empty'],
    ];

    it.each(INVALID)('%s → 400 VALIDATION_FAILED', async (_name, method, path, body, detail) => {
      const { user, api } = await ready();
      const request = t.http()[method](`${api}/${path}`).set(user.auth);
      const response = body === null ? await request : await request.send(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'VALIDATION_FAILED', detail });
    });
  });

  describe('realtime feed', () => {
    it('streams status on connect, file changes, command output and pings', async () => {
      const { user, id, api } = await ready();
      const feed = await SseClient.open(`${baseUrl()}${api}/events`, user.auth);
      try {
        expect(feed.status).toBe(200);
        expect(feed.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
        expect(feed.response.headers['cache-control']).toBe('no-store, no-transform');
        expect(feed.response.headers['x-accel-buffering']).toBe('no');
        const status = await feed.next((e) => e.event === 'status');
        expect(status.data).toEqual({ status: 'running', message: expect.any(String), url: expect.stringMatching(previewUrl(id)) });

        await t.http().post(`${api}/write-file`).set(user.auth).send({ path: 'src/new.ts', content: 'x' }).expect(200);
        expect((await feed.next((e) => e.event === 'files-changed')).data).toEqual({ paths: ['src/new.ts'], reason: 'write' });
        await t.http().delete(`${api}/delete-file`).query({ path: './src/new.ts' }).set(user.auth).expect(200);
        await feed.next((e) => e.event === 'files-changed' && (e.data as { reason: string }).reason === 'delete');
        await t.http().post(`${api}/create-directory`).set(user.auth).send({ path: 'a/b' }).expect(200);
        expect((await feed.next((e) => (e.data as { reason?: string }).reason === 'create-directory')).data).toEqual({ paths: ['a/b'], reason: 'create-directory' });

        host.commandOutput = [['stdout', 'building…\n'], ['stderr', 'warning: x\n']];
        try {
          const run = await t.http().post(`${api}/run-command`).set(user.auth).send({ command: 'npm run build', command_id: 'cmd-1' });
          expect(run.body).toMatchObject({ exit_code: 0, stdout: 'building…\n', stderr: 'warning: x\n' });
        } finally {
          host.commandOutput = [];
        }
        // The feed is its own connection: wait for the exit, which comes after the output.
        expect((await feed.next((e) => e.event === 'command-exit')).data).toEqual({ command_id: 'cmd-1', exit_code: 0, timed_out: false });
        const outputs = feed.events.filter((e) => e.event === 'command-output');
        expect(outputs.map((e) => e.data)).toEqual([
          { command_id: 'cmd-1', stream: 'stdout', text: 'building…\n' },
          { command_id: 'cmd-1', stream: 'stderr', text: 'warning: x\n' },
        ]);
        expect((await feed.next((e) => (e.data as { reason?: string }).reason === 'command')).data).toEqual({ paths: [], reason: 'command' });

        await feed.nextComment('ping');
      } finally {
        feed.close();
      }
    });

    it('interrupt-command stops a running command (Ctrl+C): the run answers exit code 130, interrupted; only the owner can', async () => {
      const { user, id } = await ready();
      const api = `/api/sandbox/${id}`;
      host.hangUntilAborted = true;
      try {
        const run = t.http().post(`${api}/run-command`).set(user.auth).send({ command: 'npm run dev', command_id: 'long-1' }).then((r) => r);
        // Asked until the command is registered (the run request is on its way).
        let answer = { interrupted: false };
        for (let i = 0; i < 50 && !answer.interrupted; i += 1) {
          await t.http().post(`${api}/interrupt-command`).set(newUser().auth).send({ command_id: 'long-1' }).expect(404);
          answer = (await t.http().post(`${api}/interrupt-command`).set(user.auth).send({ command_id: 'long-1' }).expect(200)).body;
          if (!answer.interrupted) await new Promise((r) => setTimeout(r, 20));
        }
        expect(answer).toEqual({ interrupted: true });
        const done = await run;
        expect(done.status).toBe(200);
        expect(done.body).toMatchObject({ exit_code: 130, interrupted: true, stdout: 'working…\n' });
      } finally {
        host.hangUntilAborted = false;
      }
      expect((await t.http().post(`${api}/interrupt-command`).set(user.auth).send({ command_id: 'long-1' }).expect(200)).body).toEqual({ interrupted: false });
      const bad = await t.http().post(`${api}/interrupt-command`).set(user.auth).send({ command_id: 'a b' });
      expect(bad.status).toBe(400);
    });

    it("turns the host's dev-server events into status events for that project only", async () => {
      const a = await ready();
      const b = await ready();
      const feedA = await SseClient.open(`${baseUrl()}${a.api}/events`, a.user.auth);
      const feedB = await SseClient.open(`${baseUrl()}${b.api}/events`, b.user.auth);
      try {
        await feedA.next((e) => e.event === 'status');
        await feedB.next((e) => e.event === 'status');
        host.emitDevServer(a.id, { status: 'failed', socketPath: null, message: 'Vite crashed' });
        const failed = await feedA.next((e) => e.event === 'status' && (e.data as { status: string }).status === 'failed');
        expect(failed.data).toEqual({ status: 'failed', message: 'Vite crashed', url: expect.stringMatching(previewUrl(a.id)) });
        await t.http().post(`${b.api}/write-file`).set(b.user.auth).send({ path: 'b.txt', content: '' }).expect(200);
        await feedB.next((e) => e.event === 'files-changed');
        expect(feedB.events.filter((e) => e.event === 'status')).toHaveLength(1);
        expect(feedA.events.filter((e) => e.event === 'files-changed')).toHaveLength(0);
      } finally {
        host.devStates.delete(a.id);
        feedA.close();
        feedB.close();
      }
    });

    it("says 'stopped' on connect before the sandbox exists", async () => {
      const user = newUser();
      const id = await createProject(user);
      const feed = await SseClient.open(`${baseUrl()}/api/sandbox/${id}/events`, user.auth);
      try {
        expect((await feed.next((e) => e.event === 'status')).data).toMatchObject({ status: 'stopped', message: 'This project has no sandbox yet' });
      } finally {
        feed.close();
      }
    });

    it('unsubscribes when the client goes away', async () => {
      const { user, id, api } = await ready();
      const feeds = t.app.get(SandboxFeed);
      const first = await SseClient.open(`${baseUrl()}${api}/events`, user.auth);
      const second = await SseClient.open(`${baseUrl()}${api}/events`, user.auth);
      await first.next((e) => e.event === 'status');
      await second.next((e) => e.event === 'status');
      expect(feeds.subscriberCount(id)).toBe(2);
      first.close();
      for (let i = 0; i < 50 && feeds.subscriberCount(id) !== 1; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(feeds.subscriberCount(id)).toBe(1);
      second.close();
      for (let i = 0; i < 50 && feeds.subscriberCount(id) !== 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(feeds.subscriberCount(id)).toBe(0);
    });

    it('needs the bearer token and ownership', async () => {
      const { api } = await ready();
      const anonymous = await SseClient.open(`${baseUrl()}${api}/events`, {});
      expect(anonymous.status).toBe(401);
      anonymous.close();
      const stranger = await SseClient.open(`${baseUrl()}${api}/events`, newUser().auth);
      expect(stranger.status).toBe(404);
      stranger.close();
    });
  });
});

describe('sandbox feed shutdown', () => {
  it('ends open streams when the API closes', async () => {
    const t = await startTestApp();
    const user = newUser();
    const id = (await t.http().post('/api/projects').set(user.auth).send({ name: 'x' })).body.id as string;
    const port = (t.app.getHttpServer().address() as AddressInfo).port;
    const feed = await SseClient.open(`http://127.0.0.1:${port}/api/sandbox/${id}/events`, user.auth);
    await feed.next((e) => e.event === 'status');
    await t.close();
    await feed.ended();
  });
});

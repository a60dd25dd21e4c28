import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import type { DevServerState } from '@kiln/domain';
import { DevServers, failedRetryDelayMs } from './dev-servers.js';

/** A launched "dev server" that exits at once, as a project with a broken vite.config does. */
function crashingChild(): ChildProcess {
  const child = new EventEmitter() as unknown as ChildProcess & EventEmitter;
  Object.assign(child, { stdout: new PassThrough(), stderr: new PassThrough(), pid: undefined, kill: () => true });
  setImmediate(() => {
    (child.stderr as PassThrough).end('failed to load config from vite.config.ts\n');
    (child.stdout as PassThrough).end();
    child.emit('close', 1, null);
  });
  return child;
}

async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !predicate(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(predicate()).toBe(true);
}

describe('DevServers failure back-off', () => {
  it('doubles from 2 s up to a minute', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 10].map(failedRetryDelayMs)).toEqual([2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
  });

  it('answers failed without relaunching during the back-off, relaunches after it, and restart always relaunches', async () => {
    let now = 1_000_000;
    let launches = 0;
    const states: DevServerState[] = [];
    const socketDir = mkdtempSync(path.join(tmpdir(), 'kiln-dev-servers-'));
    const servers = new DevServers({
      idleStopMs: 60_000,
      startTimeoutMs: 60_000,
      socketDir,
      launch: async () => {
        launches += 1;
        return crashingChild();
      },
      onChange: (_id, state) => states.push(state),
      now: () => now,
    });
    const id = 'project-1';

    expect((await servers.request(id)).status).toBe('starting');
    await until(() => states.at(-1)?.status === 'failed');
    expect(states.at(-1)?.message).toContain('failed to load config');

    // The starting page reloads every second: no relaunch within the back-off.
    now += 1000;
    expect((await servers.request(id)).status).toBe('failed');
    expect(launches).toBe(1);

    now += 1500; // past the first 2 s
    expect((await servers.request(id)).status).toBe('starting');
    expect(launches).toBe(2);
    await until(() => states.at(-1)?.status === 'failed');

    now += 3000; // second failure in a row: 4 s
    expect((await servers.request(id)).status).toBe('failed');
    expect(launches).toBe(2);

    // A change to the project's files (perhaps the fix) allows the next request to try at once.
    servers.filesChanged(id);
    expect((await servers.request(id)).status).toBe('starting');
    expect(launches).toBe(3);
    await until(() => states.at(-1)?.status === 'failed');

    expect((await servers.restart(id)).status).toBe('starting');
    expect(launches).toBe(4);
    await until(() => states.at(-1)?.status === 'failed');
    await servers.stopAll();
  });
});

/**
 * A launched "dev server" that serves: it listens on the socket path itself (this process closes
 * its own copy of the listening socket), prints the ready line, and answers warm checks with
 * `answer(mode)` (null: never).
 */
function servingChild(socketPath: string, answer: (mode: string) => string | null): ChildProcess & EventEmitter {
  const child = new EventEmitter() as unknown as ChildProcess & EventEmitter;
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const server = createServer();
  Object.assign(child, { stdin, stdout, stderr: new PassThrough(), pid: undefined, kill: () => true, exitCode: null, signalCode: null });
  setImmediate(() => {
    rmSync(socketPath, { force: true });
    server.listen(socketPath, () => stdout.write('KILN_DEV_SERVER_READY socket\n'));
  });
  stdin.setEncoding('utf8');
  stdin.on('data', (line: string) => {
    const [, id, mode = ''] = line.trim().split(' ');
    const reply = answer(mode);
    if (reply === null) return;
    // Other output, and a forged answer to another request, come first.
    stdout.write(`vite: page reload src/App.tsx\nKILN_CHECK_RESULT ${'0'.repeat(24)} {"forged":true}\nKILN_CHECK_RESULT ${id} ${reply}\n`);
  });
  child.once('close', () => server.close());
  return child;
}

describe('DevServers.askCheck', () => {
  it('asks the running server, answers its reply to that request only, and null when nothing runs, it is silent or it exits', async () => {
    const socketDir = mkdtempSync(path.join(tmpdir(), 'kiln-dev-servers-'));
    const children = new Map<string, ChildProcess & EventEmitter>();
    const states: DevServerState[] = [];
    const servers: DevServers = new DevServers({
      idleStopMs: 60_000,
      startTimeoutMs: 60_000,
      socketDir,
      launch: async (id) => {
        const child = servingChild(servers.socketPathFor(id), (mode) => (id === 'silent' ? null : JSON.stringify({ mode })));
        children.set(id, child);
        return child;
      },
      onChange: (_id, state) => states.push(state),
    });
    expect(await servers.askCheck('nothing-runs', 'build', 1000)).toBeNull();
    for (const id of ['talks', 'silent']) {
      await servers.request(id);
      await until(() => servers.isActive(id) && states.some((s) => s.status === 'running' && s.socketPath === servers.socketPathFor(id)));
    }
    expect(await servers.askCheck('talks', 'vouch', 5000)).toBe('{"mode":"vouch"}');
    expect(await servers.askCheck('talks', 'build', 5000)).toBe('{"mode":"build"}');
    expect(await servers.askCheck('silent', 'build', 50)).toBeNull();
    const pending = servers.askCheck('silent', 'build', 60_000);
    children.get('silent')?.emit('close', 1, null);
    expect(await pending).toBeNull();
    children.get('talks')?.emit('close', 0, null);
    await servers.stopAll();
  });
});

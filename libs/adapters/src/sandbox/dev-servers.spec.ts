import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
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

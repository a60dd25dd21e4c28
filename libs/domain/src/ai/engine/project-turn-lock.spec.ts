import { describe, expect, it } from '@jest/globals';
import { projectTurnLockContract } from '../../testing/contracts/project-turn-lock.contract.js';
import { EventChannel } from './event-channel.js';
import { InProcessTurnLock } from './project-turn-lock.js';

projectTurnLockContract('InProcessTurnLock', async () => ({ lock: new InProcessTurnLock() }));

describe('InProcessTurnLock', () => {
  it('runs the work of one project one at a time, in the order asked; other projects do not wait', async () => {
    const lock = new InProcessTurnLock();
    const log: string[] = [];
    let releaseFirst!: () => void;
    const first = lock.run('p1', async () => {
      log.push('p1:a start');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      log.push('p1:a end');
    });
    const second = lock.run('p1', async () => {
      log.push('p1:b');
    });
    const other = lock.run('p2', async () => {
      log.push('p2');
    });
    await other;
    await Promise.resolve();
    expect(log).toEqual(['p1:a start', 'p2']);
    releaseFirst();
    await Promise.all([first, second]);
    expect(log).toEqual(['p1:a start', 'p2', 'p1:a end', 'p1:b']);
    expect(lock.busyProjects).toBe(0);
  });

  it('a failing work releases the lock and rejects only its own caller', async () => {
    const lock = new InProcessTurnLock();
    await expect(lock.run('p', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lock.run('p', async () => 42)).resolves.toBe(42);
  });
});

describe('EventChannel', () => {
  it('delivers what was pushed before and after the reader started, then ends on close', async () => {
    const channel = new EventChannel<{ n: number }>();
    channel.push({ n: 1 });
    const read = (async () => {
      const seen: number[] = [];
      for await (const item of channel) seen.push(item.n);
      return seen;
    })();
    channel.push({ n: 2 });
    await Promise.resolve();
    channel.push({ n: 3 });
    channel.close();
    channel.push({ n: 4 });
    expect(await read).toEqual([1, 2, 3]);
  });
});

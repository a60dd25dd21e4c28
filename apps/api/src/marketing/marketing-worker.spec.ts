import { describe, expect, it } from '@jest/globals';
import type { DeliverMarketingOutbox } from '@kiln/domain';
import { testConfig } from '../testing/e2e.js';
import { MarketingWorker } from './marketing-worker.js';

/** A delivery round the test finishes by hand. */
function heldRounds() {
  const rounds: Array<() => void> = [];
  const deliver = {
    execute: () =>
      new Promise((resolve) => {
        rounds.push(() => resolve({ delivered: 1, failed: 0, deferred: 0 }));
      }),
  } as unknown as DeliverMarketingOutbox;
  return { rounds, deliver };
}

describe('MarketingWorker', () => {
  it('runs one round at a time: a tick while one runs joins it', async () => {
    const { rounds, deliver } = heldRounds();
    const worker = new MarketingWorker(deliver, testConfig());
    const first = worker.tick();
    const second = worker.tick();
    expect(rounds).toHaveLength(1);
    rounds[0]!();
    await Promise.all([first, second]);
    const third = worker.tick();
    expect(rounds).toHaveLength(2);
    rounds[1]!();
    await third;
  });

  it('a failed round is logged, never thrown, and the next tick runs again', async () => {
    let calls = 0;
    const deliver = {
      execute: async () => {
        calls += 1;
        throw new Error('connection refused');
      },
    } as unknown as DeliverMarketingOutbox;
    const worker = new MarketingWorker(deliver, testConfig());
    await expect(worker.tick()).resolves.toBeUndefined();
    await expect(worker.tick()).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });

  it('does not start under NODE_ENV=test (interval 0): shutting down has nothing to wait for', async () => {
    const { rounds, deliver } = heldRounds();
    const worker = new MarketingWorker(deliver, testConfig());
    worker.onApplicationBootstrap();
    await worker.onApplicationShutdown();
    expect(rounds).toHaveLength(0);
  });
});

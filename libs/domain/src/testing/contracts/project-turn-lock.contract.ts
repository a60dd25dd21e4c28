import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ProjectTurnLock } from '../../ai/engine/project-turn-lock.js';

export interface ProjectTurnLockHarness {
  readonly lock: ProjectTurnLock;
  close?(): Promise<void>;
}

interface Gate {
  readonly opened: Promise<void>;
  open(): void;
}

function gate(): Gate {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Lets other callbacks run a few times (no timers: the domain has none). */
async function yieldSome(times = 20): Promise<void> {
  for (let i = 0; i < times; i += 1) await Promise.resolve();
}

/**
 * The ProjectTurnLock contract: one work at a time per project, in the order asked; projects
 * independent of each other; a failing work releases the lock; `tryRun` runs at once on a free
 * project and answers busy, without running or waiting, on a taken one. Call it from each
 * adapter's spec.
 * A lock that wrongly serialises two projects makes a case hang until the test's time-out.
 */
export function projectTurnLockContract(name: string, makeHarness: () => Promise<ProjectTurnLockHarness>): void {
  describe(`ProjectTurnLock contract: ${name}`, () => {
    let h: ProjectTurnLockHarness;
    let projects = 0;
    /** A project id no other test has used. */
    const project = () => `contract-project-${(projects += 1)}`;

    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h.close?.();
    });

    it('resolves with the work’s result', async () => {
      await expect(h.lock.run(project(), async () => 42)).resolves.toBe(42);
    });

    it('runs one project’s works one at a time, in the order asked, while another project’s work runs', async () => {
      const [p1, p2] = [project(), project()];
      const log: string[] = [];
      const started = gate();
      const release = gate();
      const first = h.lock.run(p1, async () => {
        log.push('a start');
        started.open();
        await release.opened;
        log.push('a end');
      });
      await started.opened;
      const later = ['b', 'c', 'd'].map((label) => h.lock.run(p1, async () => void log.push(label)));
      try {
        await h.lock.run(p2, async () => void log.push('other project'));
        await yieldSome();
        expect(log).toEqual(['a start', 'other project']);
      } finally {
        release.open();
        await Promise.all([first, ...later]);
      }
      expect(log).toEqual(['a start', 'other project', 'a end', 'b', 'c', 'd']);
    });

    it('never runs two works of one project at once, however they are asked', async () => {
      const p = project();
      let active = 0;
      let most = 0;
      const works = Array.from({ length: 6 }, (_, i) =>
        h.lock.run(p, async () => {
          active += 1;
          most = Math.max(most, active);
          await yieldSome();
          active -= 1;
          return i;
        }),
      );
      expect(await Promise.all(works)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(most).toBe(1);
    });

    it('runs two projects’ works at the same time (each waits for the other to start)', async () => {
      const [p1, p2] = [project(), project()];
      const started = { p1: gate(), p2: gate() };
      const both = await Promise.all([
        h.lock.run(p1, async () => {
          started.p1.open();
          await started.p2.opened;
          return 'p1';
        }),
        h.lock.run(p2, async () => {
          started.p2.open();
          await started.p1.opened;
          return 'p2';
        }),
      ]);
      expect(both).toEqual(['p1', 'p2']);
    });

    it('releases the lock when a work fails: only its caller sees the failure, the next work runs', async () => {
      const p = project();
      const failing = h.lock.run(p, async () => Promise.reject(new Error('boom')));
      const next = h.lock.run(p, async () => 'next');
      await expect(failing).rejects.toThrow('boom');
      await expect(next).resolves.toBe('next');
      await expect(h.lock.run(p, async () => 'after')).resolves.toBe('after');
    });

    it('tryRun runs the work at once on a free project and resolves with its result', async () => {
      const p = project();
      await expect(h.lock.tryRun(p, async () => 42)).resolves.toEqual({ ran: true, value: 42 });
      await expect(h.lock.tryRun(p, async () => 'again')).resolves.toEqual({ ran: true, value: 'again' });
    });

    it('tryRun answers busy while a work of the project runs or waits, without running; other projects are free', async () => {
      const [p, other] = [project(), project()];
      const log: string[] = [];
      const started = gate();
      const release = gate();
      const running = h.lock.run(p, async () => {
        log.push('turn start');
        started.open();
        await release.opened;
        log.push('turn end');
      });
      await started.opened;
      const waiting = h.lock.run(p, async () => void log.push('queued turn'));
      try {
        await expect(h.lock.tryRun(p, async () => void log.push('theme'))).resolves.toEqual({ ran: false });
        await expect(h.lock.tryRun(other, async () => 'other')).resolves.toEqual({ ran: true, value: 'other' });
        await yieldSome();
        expect(log).toEqual(['turn start']);
      } finally {
        release.open();
        await Promise.all([running, waiting]);
      }
      expect(log).toEqual(['turn start', 'turn end', 'queued turn']);
      await expect(h.lock.tryRun(p, async () => 'free again')).resolves.toEqual({ ran: true, value: 'free again' });
    });

    it('a work started by tryRun holds the lock: later works wait for it, another tryRun is busy', async () => {
      const p = project();
      const log: string[] = [];
      const started = gate();
      const release = gate();
      const attempt = h.lock.tryRun(p, async () => {
        log.push('theme start');
        started.open();
        await release.opened;
        log.push('theme end');
        return 'applied';
      });
      await started.opened;
      const turn = h.lock.run(p, async () => void log.push('turn'));
      try {
        await expect(h.lock.tryRun(p, async () => void log.push('second theme'))).resolves.toEqual({ ran: false });
        await yieldSome();
        expect(log).toEqual(['theme start']);
      } finally {
        release.open();
      }
      await expect(attempt).resolves.toEqual({ ran: true, value: 'applied' });
      await turn;
      expect(log).toEqual(['theme start', 'theme end', 'turn']);
    });

    it('tryRun: a failing work rejects its caller and releases the lock', async () => {
      const p = project();
      await expect(h.lock.tryRun(p, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
      await expect(h.lock.tryRun(p, async () => 'next')).resolves.toEqual({ ran: true, value: 'next' });
      await expect(h.lock.run(p, async () => 'turn')).resolves.toBe('turn');
    });
  });
}

/** What `tryRun` answers: the work's result, or `ran: false` when the project was busy (the work did not run). */
export type LockAttempt<T> = { readonly ran: true; readonly value: T } | { readonly ran: false };

/**
 * One turn at a time per project: later turns wait, in the order they asked. Short edits made
 * outside a turn (applying a theme) take the same lock without waiting: they run at once, or are
 * told the project is busy.
 */
export interface ProjectTurnLock {
  /** Runs `work` once every earlier work of this project has settled; resolves with its result. */
  run<T>(projectId: string, work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` now when no work of this project is running or waiting, holding the lock as `run`
   * does until it settles (a failure rejects and releases it); otherwise answers `{ ran: false }`
   * without running it and without waiting.
   */
  tryRun<T>(projectId: string, work: () => Promise<T>): Promise<LockAttempt<T>>;
}

/**
 * ProjectTurnLock for one API process: a promise chain per project (FIFO). Several API instances
 * share a lock in their database instead (PgAdvisoryTurnLock, which queues on this one first).
 * Both follow the contract in testing/contracts/project-turn-lock.contract.ts.
 */
export class InProcessTurnLock implements ProjectTurnLock {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(projectId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(projectId) ?? Promise.resolve();
    const result = previous.then(work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(projectId, tail);
    void tail.then(() => {
      if (this.tails.get(projectId) === tail) this.tails.delete(projectId);
    });
    return result;
  }

  async tryRun<T>(projectId: string, work: () => Promise<T>): Promise<LockAttempt<T>> {
    // Checked and taken in one synchronous step: nothing else can queue in between.
    if (this.tails.has(projectId)) return { ran: false };
    return { ran: true, value: await this.run(projectId, work) };
  }

  /** Projects with a turn running or waiting (tests, diagnostics). */
  get busyProjects(): number {
    return this.tails.size;
  }
}

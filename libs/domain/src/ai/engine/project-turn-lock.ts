/** One turn at a time per project: later turns wait, in the order they asked. */
export interface ProjectTurnLock {
  /** Runs `work` once every earlier work of this project has settled; resolves with its result. */
  run<T>(projectId: string, work: () => Promise<T>): Promise<T>;
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

  /** Projects with a turn running or waiting (tests, diagnostics). */
  get busyProjects(): number {
    return this.tails.size;
  }
}

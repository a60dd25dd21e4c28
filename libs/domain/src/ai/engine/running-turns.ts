import type { AbortSignalLike } from '../../shared/abort-signal.js';
import type { Turn } from './turn.entity.js';

/**
 * The person's Stop for one run of a turn: an AbortSignal the engine checks between steps and
 * passes to the assistant, so a model call under way is cut short too.
 */
export class StopSignal implements AbortSignalLike {
  private stopped = false;
  private readonly listeners = new Set<() => void>();

  get aborted(): boolean {
    return this.stopped;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.add(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.delete(listener);
  }

  /** Stops the run; stopping twice is once. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const listener of [...this.listeners]) listener();
  }
}

/**
 * The turns this process is running (queued or running), by turn id: how a Stop reaches a turn
 * that runs detached from the request that started it. One API process owns every turn
 * (docs/decisions.md, AI turns), so an in-process registry is the whole truth.
 */
export class RunningTurns {
  private readonly runs = new Map<string, { readonly signal: StopSignal; readonly finished: Promise<Turn | null> }>();

  /** Called by the engine when a run starts; forgotten when it ends. */
  track(turnId: string, signal: StopSignal, finished: Promise<Turn | null>): void {
    this.runs.set(turnId, { signal, finished });
    const forget = () => {
      if (this.runs.get(turnId)?.finished === finished) this.runs.delete(turnId);
    };
    finished.then(forget, forget);
  }

  /** Stops the turn's run and resolves with the turn as it ended; null when this process does not run it. */
  stop(turnId: string): Promise<Turn | null> | null {
    const run = this.runs.get(turnId);
    if (run === undefined) return null;
    run.signal.stop();
    return run.finished;
  }

  isRunning(turnId: string): boolean {
    return this.runs.has(turnId);
  }
}

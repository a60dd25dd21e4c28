import { makeAutoObservable } from 'mobx';
import type { Timers } from '../../app/ports';

/** An observable "now" that moves every second while started: the clock of resend countdowns. */
export class TickingClock {
  now: number;
  private stopTicking: (() => void) | null = null;

  constructor(private readonly timers: Timers) {
    this.now = timers.now();
    makeAutoObservable<TickingClock, 'timers' | 'stopTicking'>(this, { timers: false, stopTicking: false }, { autoBind: true });
  }

  /** Starts ticking (call from an effect; `dispose` stops it). */
  start(): void {
    this.stopTicking?.();
    this.tick();
    this.stopTicking = this.timers.every(1000, () => this.tick());
  }

  dispose(): void {
    this.stopTicking?.();
    this.stopTicking = null;
  }

  tick(): void {
    this.now = this.timers.now();
  }
}

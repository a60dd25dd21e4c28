import { AI_DOTS_INTERVAL_MS, type AiActivity, type AiPhase, IDLE_AI_ACTIVITY, aiDots, aiPhaseLabel, applyAiPhase } from '@kiln/domain';
import { makeAutoObservable } from 'mobx';
import type { Timers } from '../../../app/ports';

/**
 * The assistant's status line (SPEC §2, §4): the AI phase with the builder flags it drives
 * (querying, executing) and the dots that move every 500 ms while it works. The rules are the
 * domain's (`applyAiPhase`); this store owns the timer.
 */
export class AiStatusStore {
  activity: AiActivity = IDLE_AI_ACTIVITY;
  /** Ticks of the dot timer since the animation started. */
  tick = 0;
  private stopTimer: (() => void) | null = null;

  constructor(private readonly timers: Timers) {
    makeAutoObservable<AiStatusStore, 'timers' | 'stopTimer'>(this, { timers: false, stopTimer: false }, { autoBind: true });
  }

  get phase(): AiPhase {
    return this.activity.phase;
  }

  get working(): boolean {
    return this.activity.phase !== 'idle';
  }

  /** SPEC §3 "AI queried". */
  get querying(): boolean {
    return this.activity.querying;
  }

  /** SPEC §3 "task executing". */
  get executing(): boolean {
    return this.activity.executing;
  }

  get label(): string | null {
    return aiPhaseLabel(this.activity.phase);
  }

  get dots(): string {
    return aiDots(this.tick);
  }

  setPhase(phase: AiPhase): void {
    this.activity = applyAiPhase(this.activity, phase);
    if (this.activity.animating) this.startDots();
    else this.stopDots();
  }

  /** Leaving the builder: idle, no timer left behind. */
  dispose(): void {
    this.setPhase('idle');
  }

  private advance(): void {
    this.tick += 1;
  }

  private startDots(): void {
    if (this.stopTimer !== null) return;
    this.tick = 0;
    this.stopTimer = this.timers.every(AI_DOTS_INTERVAL_MS, this.advance);
  }

  private stopDots(): void {
    this.stopTimer?.();
    this.stopTimer = null;
    this.tick = 0;
  }
}

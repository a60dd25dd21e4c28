import { inject, injectable } from 'inversify';
import { makeAutoObservable } from 'mobx';
import { TYPES, type Timers } from '../../app/ports';

/** GOTRUE.md: a code mail can be asked again after 60 s. */
export const RESEND_COOLDOWN_MS = 60_000;

/**
 * When the next code mail may be asked for, per address, for the whole app session: sign-up,
 * login (unconfirmed email) and reset mark a send; /verify and /reset-password count down.
 */
@injectable()
export class CodeCooldowns {
  private readonly nextAllowedAt = new Map<string, number>();

  constructor(@inject(TYPES.Timers) private readonly timers: Timers) {
    makeAutoObservable<CodeCooldowns, 'timers'>(this, { timers: false }, { autoBind: true });
  }

  /** A code was just mailed to `email`. */
  markSent(email: string): void {
    this.nextAllowedAt.set(key(email), this.timers.now() + RESEND_COOLDOWN_MS);
  }

  /** The server said to wait `seconds` more. */
  waitFor(email: string, seconds: number): void {
    this.nextAllowedAt.set(key(email), this.timers.now() + seconds * 1000);
  }

  /** Whole seconds left at `now` (0 = may send). */
  secondsLeft(email: string, now: number): number {
    const at = this.nextAllowedAt.get(key(email));
    return at === undefined ? 0 : Math.max(0, Math.ceil((at - now) / 1000));
  }
}

const key = (email: string): string => email.trim().toLowerCase();

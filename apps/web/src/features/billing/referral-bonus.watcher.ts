import { REFERRAL_BONUS_CREDITS } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { reaction } from 'mobx';
import { type KeyValueStorage, type SessionService, type Timers, type ToastInput, type Toasts, TYPES } from '../../app/ports';
import { type Logger, UI_TYPES } from '../../app/ui-ports';
import type { ReferralsApi } from '../../api/referrals.api';
import { SubscriptionStore } from './subscription.store';

/** How often a signed-in app asks whether a friend signed up. */
export const REFERRAL_POLL_MS = 60_000;

/** SPEC §8, verbatim. */
export const REFERRAL_BONUS_TOAST: ToastInput = {
  title: 'Referral Bonus!',
  description: `Your friend just signed up! You received ${REFERRAL_BONUS_CREDITS} bonus credits!`,
  variant: 'success',
};

/** Per user: how many referred friends this browser has already told them about. */
export const referralsSeenKey = (userId: string): string => `kiln.referrals_seen.${userId}`;

/**
 * The referrer's side of a referral: the server credits the referrer the moment the friend signs
 * up (ApplyReferral); this watcher notices it — the referred count grew since this browser last
 * looked — shows 'Referral Bonus!' once, and reloads the credits. The count seen is kept in local
 * storage, so a friend who signed up while the referrer was away is announced on the next visit,
 * and a first visit only records where things stand.
 */
@injectable()
export class ReferralBonusWatcher {
  constructor(
    @inject(TYPES.Session) private readonly session: SessionService,
    @inject(TYPES.ReferralsApi) private readonly referrals: ReferralsApi,
    @inject(TYPES.Storage) private readonly storage: KeyValueStorage,
    @inject(TYPES.Toasts) private readonly toasts: Toasts,
    @inject(TYPES.Timers) private readonly timers: Timers,
    @inject(SubscriptionStore) private readonly store: SubscriptionStore,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
  ) {}

  /** Checks now and every REFERRAL_POLL_MS while signed in; returns the function that stops. */
  start(): () => void {
    let stopPolling: (() => void) | null = null;
    const stopReaction = reaction(
      () => (this.session.status === 'signed-in' ? (this.session.user?.id ?? null) : null),
      (userId) => {
        stopPolling?.();
        stopPolling = null;
        if (userId === null) return;
        void this.check();
        stopPolling = this.timers.every(REFERRAL_POLL_MS, () => void this.check());
      },
      { fireImmediately: true },
    );
    return () => {
      stopReaction();
      stopPolling?.();
    };
  }

  async check(): Promise<void> {
    const userId = this.session.user?.id;
    if (this.session.status !== 'signed-in' || !userId) return;
    let count: number;
    try {
      count = (await this.referrals.stats()).referred_count;
    } catch (error) {
      this.logger.warn('Error loading referrals', error);
      return;
    }
    const key = referralsSeenKey(userId);
    const stored = this.storage.get(key);
    const seen = stored === null ? null : Number.parseInt(stored, 10);
    this.storage.set(key, String(count));
    if (seen === null || !Number.isSafeInteger(seen) || count <= seen) return;
    this.toasts.show(REFERRAL_BONUS_TOAST);
    await Promise.all([this.store.refreshProfile(), this.store.loadUsage()]);
  }
}

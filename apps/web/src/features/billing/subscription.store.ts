import { inject, injectable } from 'inversify';
import { makeAutoObservable, reaction, runInAction } from 'mobx';
import { type ProfileApi, type ProfileDto, type SessionService, type Timers, TYPES } from '../../app/ports';
import { type Logger, UI_TYPES } from '../../app/ui-ports';
import type { CurrentPlanDto, PlanDto, PlansApi } from '../../api/plans.api';
import type { UsageApi, UsageStatsDto } from '../../api/usage.api';
import { BACKGROUND_REFRESH_MS, PLAN_DETAILS_FAILED, PLANS_LOAD_FAILED, PROFILE_LOAD_FAILED } from './billing-messages';

/**
 * SPEC §3 "Subscription state": profile, plans, current plan, usage stats, free-trial-used flag,
 * last updated, loading and upgrading flags; reset and cache-clear. One instance for the app
 * (pricing, settings, the upgrade and add-on dialogs, the checkout return).
 *
 * SPEC §4: on sign-in everything loads; while signed in the profile is refreshed every 10
 * minutes; on sign-out the state resets. `start()` wires that to the session (AppShell calls it).
 * Load failures are only logged (SPEC §8) and leave the previous values in place.
 */
@injectable()
export class SubscriptionStore {
  profile: ProfileDto | null = null;
  plans: readonly PlanDto[] = [];
  currentPlan: CurrentPlanDto | null = null;
  usage: UsageStatsDto | null = null;
  /** Milliseconds since the epoch of the last successful load of any part. */
  lastUpdated: number | null = null;
  loading = false;
  /** A checkout or upgrade is under way (the browser is about to leave for the payment page). */
  upgrading = false;

  private stopRefresh: (() => void) | null = null;

  constructor(
    @inject(TYPES.Session) private readonly session: SessionService,
    @inject(TYPES.ProfileApi) private readonly profileApi: ProfileApi,
    @inject(TYPES.PlansApi) private readonly plansApi: PlansApi,
    @inject(TYPES.UsageApi) private readonly usageApi: UsageApi,
    @inject(TYPES.Timers) private readonly timers: Timers,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
  ) {
    makeAutoObservable<SubscriptionStore, 'session' | 'profileApi' | 'plansApi' | 'usageApi' | 'timers' | 'logger' | 'stopRefresh'>(
      this,
      { session: false, profileApi: false, plansApi: false, usageApi: false, timers: false, logger: false, stopRefresh: false },
      { autoBind: true },
    );
  }

  get signedIn(): boolean {
    return this.session.status === 'signed-in' && this.session.user !== null;
  }

  /** SPEC §3 free-trial-used: the account has paid for something before. */
  get freeTrialUsed(): boolean {
    return (this.profile?.first_purchased_date ?? null) !== null;
  }

  get planId(): string {
    return this.currentPlan?.id ?? this.profile?.subscription_plan ?? 'free';
  }

  /**
   * Follows the session: signed in → load everything and refresh the profile every 10 minutes;
   * signed out → stop and reset. Returns the function that stops following.
   */
  start(): () => void {
    const stopReaction = reaction(
      () => (this.signedIn ? (this.session.user?.id ?? null) : null),
      (userId) => {
        this.stopBackgroundRefresh();
        if (userId === null) {
          if (this.session.status === 'signed-out') this.reset();
          return;
        }
        this.reset();
        void this.loadAll();
        this.stopRefresh = this.timers.every(BACKGROUND_REFRESH_MS, () => void this.refreshProfile());
      },
      { fireImmediately: true },
    );
    return () => {
      stopReaction();
      this.stopBackgroundRefresh();
    };
  }

  /** Profile, plans, current plan and usage stats, side by side (SPEC §4 "On login"). */
  async loadAll(): Promise<void> {
    this.loading = true;
    await Promise.all([this.refreshProfile(), this.loadPlans(), this.loadCurrentPlan(), this.loadUsage()]);
    runInAction(() => (this.loading = false));
  }

  /** Profile data loads only when a user id exists (SPEC §6). */
  async refreshProfile(): Promise<boolean> {
    if (!this.signedIn) return false;
    try {
      const profile = await this.profileApi.get();
      this.setProfile(profile);
      return true;
    } catch (error) {
      this.logger.error(PROFILE_LOAD_FAILED, error);
      return false;
    }
  }

  async loadPlans(): Promise<boolean> {
    try {
      const plans = await this.plansApi.list();
      runInAction(() => {
        this.plans = plans;
        this.touch();
      });
      return true;
    } catch (error) {
      this.logger.error(PLANS_LOAD_FAILED, error);
      return false;
    }
  }

  async loadCurrentPlan(): Promise<boolean> {
    if (!this.signedIn) return false;
    try {
      const current = await this.plansApi.current();
      runInAction(() => {
        this.currentPlan = current;
        this.touch();
      });
      return true;
    } catch (error) {
      this.logger.warn(PLAN_DETAILS_FAILED, error);
      return false;
    }
  }

  async loadUsage(): Promise<boolean> {
    if (!this.signedIn) return false;
    try {
      const usage = await this.usageApi.stats();
      runInAction(() => {
        this.usage = usage;
        this.touch();
      });
      return true;
    } catch (error) {
      this.logger.warn('Error loading usage stats', error);
      return false;
    }
  }

  setProfile(profile: ProfileDto): void {
    this.profile = profile;
    this.touch();
  }

  setUsage(usage: UsageStatsDto): void {
    this.usage = usage;
    this.touch();
  }

  setCurrentPlan(plan: CurrentPlanDto): void {
    this.currentPlan = plan;
    this.touch();
  }

  setUpgrading(upgrading: boolean): void {
    this.upgrading = upgrading;
  }

  /** SPEC §4: on sign-out profile and plan state reset. */
  reset(): void {
    this.profile = null;
    this.currentPlan = null;
    this.usage = null;
    this.lastUpdated = null;
    this.loading = false;
    this.upgrading = false;
  }

  /** Forgets what was loaded for the user (plans are public and stay). */
  clearCache(): void {
    this.reset();
  }

  private touch(): void {
    this.lastUpdated = this.timers.now();
  }

  private stopBackgroundRefresh(): void {
    this.stopRefresh?.();
    this.stopRefresh = null;
  }
}

import { ADDON_PACK_CREDITS, validateTrackingEvent } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { type Analytics, type Navigator, type Timers, type Toasts, TYPES } from '../../app/ports';
import { type Logger, UI_TYPES } from '../../app/ui-ports';
import type { ForceUpdateResultDto, PaymentsApi } from '../../api/payments.api';
import {
  CHECKOUT_CANCELED_TOAST,
  POST_CHECKOUT_REFRESH_MS,
  POST_CHECKOUT_SYNC_MS,
  SUBSCRIPTION_UPDATED_TOAST,
  creditsAddedToast,
  SYNC_ERROR_TOAST,
  UPDATE_ERROR_TOAST,
  SYNC_FAILED,
  UPDATING_SUBSCRIPTION_TOAST,
} from './billing-messages';
import { CheckoutIntent, type CheckoutKind } from './checkout-intent';
import { SubscriptionStore } from './subscription.store';

/** The query values the payment provider sends the browser back with (SPEC §2). */
export const CHECKOUT_QUERY_KEYS = ['success', 'canceled', 'session_id'] as const;
export const THANK_YOU_PATH = '/thank-you';
export const SETTINGS_PATH = '/settings';
/** Where an add-on purchase lands when it was not started from elsewhere: Settings → Plan & usage. */
export const SETTINGS_PLAN_PATH = '/settings?tab=plan';

export type CheckoutReturn = 'success' | 'canceled' | null;

/** `?success` or `?session_id` → success; `?canceled` → canceled (success wins if both). */
export function checkoutReturnOf(search: string): CheckoutReturn {
  const query = new URLSearchParams(search);
  if (query.has('success') || query.has('session_id')) return 'success';
  if (query.has('canceled')) return 'canceled';
  return null;
}

/** The same search without the checkout values ('' when nothing else is left). */
export function withoutCheckoutParams(search: string): string {
  const query = new URLSearchParams(search);
  for (const key of CHECKOUT_QUERY_KEYS) query.delete(key);
  const rest = query.toString();
  return rest === '' ? '' : `?${rest}`;
}

export type SyncStatus = 'idle' | 'syncing' | 'done' | 'failed';

/**
 * SPEC §4 "After checkout success", on whatever page the provider sends the browser back to:
 * toast 'Updating Subscription'; refresh the profile after 1 s; after 2.5 s reload plans,
 * profile and current plan, sync with the provider (force-update), refresh usage; then toast
 * 'Subscription Updated' for a plan, '500 credits added' for an add-on pack, track the purchase
 * and go back where the checkout was started (a safe path remembered by CheckoutIntent, e.g. the
 * builder), else to Settings (the Plan & usage tab for credits). Any failure: 'Sync Error'.
 * `?canceled` shows the 'Checkout Canceled' info toast and goes back where checkout was started. The checkout values leave the address
 * (except on /thank-you, whose guard needs them; that page leaves for /settings when done).
 */
@injectable()
export class CheckoutReturnFlow {
  status: SyncStatus = 'idle';
  /** The plan the provider reported after the sync, for the thank-you page. */
  syncedPlanName: string | null = null;
  private handledKey: string | null = null;

  constructor(
    @inject(SubscriptionStore) private readonly store: SubscriptionStore,
    @inject(TYPES.PaymentsApi) private readonly payments: PaymentsApi,
    @inject(TYPES.Toasts) private readonly toasts: Toasts,
    @inject(TYPES.Analytics) private readonly analytics: Analytics,
    @inject(TYPES.Navigator) private readonly navigator: Navigator,
    @inject(TYPES.Timers) private readonly timers: Timers,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
    @inject(CheckoutIntent) private readonly intent: CheckoutIntent,
  ) {
    makeAutoObservable<CheckoutReturnFlow, 'store' | 'payments' | 'toasts' | 'analytics' | 'navigator' | 'timers' | 'logger' | 'intent' | 'handledKey'>(
      this,
      { store: false, payments: false, toasts: false, analytics: false, navigator: false, timers: false, logger: false, intent: false, handledKey: false },
      { autoBind: true },
    );
  }

  /**
   * Called with every location once the session is known. Handles a checkout return once per
   * location key (React StrictMode runs effects twice). Returns the sync's promise, if one started.
   */
  handle(location: { readonly key: string; readonly pathname: string; readonly search: string }): Promise<void> | null {
    const kind = checkoutReturnOf(location.search);
    if (kind === null || this.handledKey === location.key) return null;
    this.handledKey = location.key;
    const onThankYou = location.pathname === THANK_YOU_PATH;
    if (!onThankYou) this.navigator.navigate(`${location.pathname}${withoutCheckoutParams(location.search)}`, { replace: true });
    const intent = this.intent.take();
    if (kind === 'canceled') {
      this.toasts.show(CHECKOUT_CANCELED_TOAST);
      if (intent?.returnPath) this.navigator.navigate(intent.returnPath);
      return null;
    }
    // Without a remembered intent (another tab started it), the provider's return page tells:
    // add-on payments come back to /settings, plans to /pricing.
    const purchase: CheckoutKind = intent?.kind ?? (location.pathname === SETTINGS_PATH ? 'add_on' : 'plan');
    return this.syncAfterCheckout(purchase, intent?.returnPath ?? null);
  }

  async syncAfterCheckout(purchase: CheckoutKind = 'plan', returnPath: string | null = null): Promise<void> {
    if (this.status === 'syncing') return;
    this.status = 'syncing';
    this.syncedPlanName = null;
    this.toasts.show(UPDATING_SUBSCRIPTION_TOAST);
    // SPEC §4: a profile refresh 1 s after the return, while the longer wait runs.
    const earlyRefresh = this.timers.sleep(POST_CHECKOUT_REFRESH_MS).then(() => this.store.refreshProfile());
    try {
      await this.timers.sleep(POST_CHECKOUT_SYNC_MS);
      await earlyRefresh;
      await Promise.all([this.store.loadPlans(), this.store.refreshProfile(), this.store.loadCurrentPlan()]);
      const synced = await this.payments.forceUpdateSubscription();
      if (synced.status === 'error') throw new Error(synced.message ?? SYNC_FAILED);
      const shown = await Promise.all([this.store.refreshProfile(), this.store.loadCurrentPlan(), this.store.loadUsage()]);
      if (shown.includes(false)) {
        // Synced with the provider, but this page could not load the result: SPEC §8's 'Error'.
        this.logger.error('Subscription synced but not reloaded');
        runInAction(() => (this.status = 'failed'));
        this.toasts.show(UPDATE_ERROR_TOAST);
        return;
      }
      const planName = this.trackPurchase(synced);
      runInAction(() => {
        this.status = 'done';
        this.syncedPlanName = planName;
      });
      this.toasts.show(purchase === 'add_on' ? creditsAddedToast(ADDON_PACK_CREDITS) : SUBSCRIPTION_UPDATED_TOAST);
      this.navigator.navigate(returnPath ?? (purchase === 'add_on' ? SETTINGS_PLAN_PATH : SETTINGS_PATH));
    } catch (error) {
      this.logger.error(SYNC_FAILED, error);
      runInAction(() => (this.status = 'failed'));
      this.toasts.show(SYNC_ERROR_TOAST);
    }
  }

  /** SPEC §5: planId, planName and a numeric planPrice, checked by the domain before sending. */
  private trackPurchase(synced: ForceUpdateResultDto): string | null {
    const plan = synced.plan;
    if (plan === null) return null;
    const planName = this.store.plans.find((p) => p.id === plan.id)?.name ?? (this.store.currentPlan?.id === plan.id ? this.store.currentPlan.name : plan.id);
    if (plan.id === 'free') return planName;
    const currency = plan.currency.toUpperCase() === 'INR' ? 'INR' : plan.currency.toUpperCase() === 'USD' ? 'USD' : undefined;
    const event = validateTrackingEvent({ kind: 'purchase', planId: plan.id, planName, planPrice: plan.price, ...(currency ? { currency } : {}) });
    if (!event.ok || event.value.kind !== 'purchase') {
      this.logger.warn(`Purchase not tracked: ${event.ok ? 'not a purchase' : event.error.message}`);
      return planName;
    }
    const { planId, planName: name, planPrice } = event.value;
    this.analytics.purchase({ planId, planName: name, planPrice, ...(currency ? { currency } : {}) });
    return planName;
  }
}

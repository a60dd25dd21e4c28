import { type Currency, billingIntervalLabel, formatMoney, moneyFromMajor } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { ApiError, TYPES, type Toasts } from '../../app/ports';
import { type Logger, type Navigation, UI_TYPES } from '../../app/ui-ports';
import type { CurrencyApi } from '../../api/currency.api';
import type { PaymentsApi } from '../../api/payments.api';
import type { PlanDto } from '../../api/plans.api';
import { PLAN_DETAILS_FAILED, UPGRADE_ERROR_TOAST } from './billing-messages';
import { CheckoutIntent } from './checkout-intent';
import { SubscriptionStore } from './subscription.store';

/** SPEC §4: what was reached. 'prompt' is the default. */
export const LIMIT_TYPES = ['project', 'published', 'credit', 'prompt'] as const;
export type LimitType = (typeof LIMIT_TYPES)[number];

export interface LimitCopy {
  readonly title: string;
  readonly message: string;
}

/** Each limit type's dialog title and message. */
export const LIMIT_COPY: Readonly<Record<LimitType, LimitCopy>> = {
  project: {
    title: "You've reached your private project limit",
    message: 'Your plan has no room for another private project. Upgrade to create as many private projects as you like.',
  },
  published: {
    title: "You've reached your published project limit",
    message: 'Your plan cannot publish more projects or connect more custom domains. Upgrade to publish without limits.',
  },
  credit: {
    title: "You've used all your credits",
    message: 'You have no credits left for this billing cycle. Upgrade for a bigger monthly allowance, or wait for your credits to renew.',
  },
  prompt: {
    title: 'Upgrade to keep building',
    message: 'Your plan has reached its prompt limit. Upgrade to get more prompts every month.',
  },
};

/**
 * The limit type of an API refusal: a 402 reply's `limit_type`; `fallback` ('prompt', the
 * default prompt) when the reply names none or an unknown one. Null when `error` is no 402.
 */
export function limitTypeOf(error: unknown, fallback: LimitType = 'prompt'): LimitType | null {
  if (!(error instanceof ApiError) || error.status !== 402) return null;
  const body = typeof error.body === 'object' && error.body !== null ? (error.body as Record<string, unknown>) : {};
  const raw = body['limit_type'];
  return typeof raw === 'string' && (LIMIT_TYPES as readonly string[]).includes(raw) ? (raw as LimitType) : fallback;
}

export interface OfferedPlan {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  /** '$25' or '₹2,499' (formatMoney). */
  readonly price: string;
  /** 'month' or 'year'. */
  readonly per: string;
}

export type UpgradeDialogState =
  | { readonly kind: 'closed' }
  | { readonly kind: 'loading' }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'plan'; readonly plan: OfferedPlan }
  | { readonly kind: 'unavailable' };

const priceIn = (plan: PlanDto, currency: Currency): number => (currency === 'INR' ? plan.price_inr : plan.price);

/**
 * The next plan up from `currentPlanId`: the cheapest paid plan that costs more per billing
 * period than the current one, preferring the monthly plan for a free user (a smaller step).
 * Null when nothing is above (pro annual, or no paid plan is offered).
 */
export function nextPlan(plans: readonly PlanDto[], currentPlanId: string, currency: Currency): PlanDto | null {
  const current = plans.find((p) => p.id === currentPlanId) ?? plans.find((p) => p.id === 'free') ?? null;
  const currentPrice = current === null ? 0 : priceIn(current, currency);
  const currentYearly = current === null ? 0 : current.billing_interval === 'monthly' ? priceIn(current, currency) * 12 : currentPrice;
  const candidates = plans
    .filter((p) => p.billing_interval !== null && p.id !== current?.id && priceIn(p, currency) > 0)
    .filter((p) => {
      const yearly = p.billing_interval === 'monthly' ? priceIn(p, currency) * 12 : priceIn(p, currency);
      return yearly > currentYearly;
    })
    .filter((p) => current?.billing_interval !== 'annual' || p.billing_interval === 'annual');
  const monthly = candidates.filter((p) => p.billing_interval === 'monthly').sort((a, b) => priceIn(a, currency) - priceIn(b, currency));
  const annual = candidates.filter((p) => p.billing_interval === 'annual').sort((a, b) => priceIn(a, currency) - priceIn(b, currency));
  return monthly[0] ?? annual[0] ?? null;
}

/**
 * The upgrade dialog (SPEC §4): opened by any part of the app with the limit that was reached.
 * It loads the plans (and the user's current plan), then shows the next plan up with its price
 * and an Upgrade button that starts checkout; or says no plan is available; or the load error.
 */
@injectable()
export class UpgradeDialogStore {
  state: UpgradeDialogState = { kind: 'closed' };
  limitType: LimitType = 'prompt';
  currency: Currency = 'USD';
  private offered: PlanDto | null = null;
  private openCount = 0;

  constructor(
    @inject(SubscriptionStore) private readonly store: SubscriptionStore,
    @inject(TYPES.PaymentsApi) private readonly payments: PaymentsApi,
    @inject(TYPES.CurrencyApi) private readonly currencyApi: CurrencyApi,
    @inject(TYPES.Toasts) private readonly toasts: Toasts,
    @inject(UI_TYPES.Navigation) private readonly navigation: Navigation,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
    @inject(CheckoutIntent) private readonly intent: CheckoutIntent,
  ) {
    makeAutoObservable<UpgradeDialogStore, 'store' | 'payments' | 'currencyApi' | 'toasts' | 'navigation' | 'logger' | 'intent' | 'offered' | 'openCount'>(
      this,
      { store: false, payments: false, currencyApi: false, toasts: false, navigation: false, logger: false, intent: false, offered: false, openCount: false },
      { autoBind: true },
    );
  }

  get isOpen(): boolean {
    return this.state.kind !== 'closed';
  }

  get copy(): LimitCopy {
    return LIMIT_COPY[this.limitType];
  }

  get upgrading(): boolean {
    return this.store.upgrading;
  }

  /** Opens the dialog for a limit type ('prompt' by default) and loads the offer. */
  open(limitType: LimitType = 'prompt'): Promise<void> {
    this.limitType = limitType;
    return this.load();
  }

  /** Opens the dialog when `error` is a 402 limit refusal; answers whether it did. */
  openFor(error: unknown, fallback: LimitType = 'prompt'): boolean {
    const limit = limitTypeOf(error, fallback);
    if (limit === null) return false;
    void this.open(limit);
    return true;
  }

  close(): void {
    if (this.store.upgrading) return;
    this.openCount += 1;
    this.state = { kind: 'closed' };
    this.offered = null;
  }

  async load(): Promise<void> {
    const attempt = ++this.openCount;
    this.state = { kind: 'loading' };
    this.offered = null;
    const [plansLoaded, currency] = await Promise.all([
      this.store.plans.length > 0 ? Promise.resolve(true) : this.store.loadPlans(),
      this.detectCurrency(),
      this.store.currentPlan === null ? this.store.loadCurrentPlan() : Promise.resolve(true),
    ]);
    if (attempt !== this.openCount) return; // closed or reopened meanwhile
    runInAction(() => {
      this.currency = currency;
      if (!plansLoaded) {
        this.state = { kind: 'error', message: PLAN_DETAILS_FAILED };
        return;
      }
      const plan = nextPlan(this.store.plans, this.store.planId, currency);
      this.offered = plan;
      this.state = plan === null ? { kind: 'unavailable' } : { kind: 'plan', plan: this.describe(plan, currency) };
    });
  }

  /**
   * Starts checkout for the offered plan and leaves for the payment page; `returnPath` (where the
   * dialog was opened, e.g. the builder) is where the person comes back to after paying.
   */
  async upgrade(returnPath?: string): Promise<void> {
    const plan = this.offered;
    if (plan === null || this.store.upgrading) return;
    this.store.setUpgrading(true);
    try {
      const url = await this.payments.createCheckoutSession(plan.id, this.currency);
      this.intent.remember('plan', returnPath);
      this.navigation.assign(url);
    } catch (error) {
      this.logger.error('Upgrade failed', error);
      this.toasts.show(UPGRADE_ERROR_TOAST);
      this.store.setUpgrading(false);
    }
  }

  private describe(plan: PlanDto, currency: Currency): OfferedPlan {
    const money = moneyFromMajor(priceIn(plan, currency), currency);
    return {
      id: plan.id,
      name: plan.name,
      description: plan.description,
      price: money.ok ? formatMoney(money.value) : '—',
      per: billingIntervalLabel(plan.billing_interval),
    };
  }

  /** The server's decision, stored in the profile, so the upgrade charges this price; USD when unreachable (SPEC §8). */
  private async detectCurrency(): Promise<Currency> {
    try {
      return (await this.currencyApi.decide(true)).currency;
    } catch (error) {
      this.logger.error('Failed to detect location', error);
      return 'USD';
    }
  }
}

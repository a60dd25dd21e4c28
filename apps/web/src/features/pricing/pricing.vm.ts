import { type Currency, billingIntervalLabel, displayLimit, formatMoney, moneyFromMajor, moneyOf, PRO_MULTIPLIERS, type ProMultiplier } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { type Analytics, ApiError, type SessionService, type Toasts, TYPES } from '../../app/ports';
import { type Logger, type Navigation, UI_TYPES } from '../../app/ui-ports';
import { type CheckoutCurrencyDto, type CurrencyApi, USD_FALLBACK } from '../../api/currency.api';
import type { PaymentsApi } from '../../api/payments.api';
import type { PlanDto, PlansApi, WireLimit } from '../../api/plans.api';
import { CheckoutIntent } from '../billing/checkout-intent';
import { SubscriptionStore } from '../billing/subscription.store';

export type PricingInterval = 'monthly' | 'annual';
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface PlanFeatureLine {
  readonly label: string;
  readonly included: boolean;
}

export type PlanAction =
  | { readonly kind: 'current'; readonly label: string }
  | { readonly kind: 'link'; readonly label: string; readonly to: string }
  | { readonly kind: 'checkout'; readonly label: string; readonly busy: boolean };

export interface PlanCard {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  /** '$25', '₹2,499' (formatMoney). */
  readonly price: string;
  /** '/month' or '/year' (billingIntervalLabel). */
  readonly per: string;
  readonly note: string;
  readonly features: readonly PlanFeatureLine[];
  readonly isCurrent: boolean;
  readonly recommended: boolean;
  readonly action: PlanAction;
}

export const CHECKOUT_ERROR_TITLE = 'Checkout Error';
export const CHECKOUT_ERROR_DESCRIPTION = 'Failed to redirect to checkout';
export const PLANS_LOAD_ERROR = 'An error occurred loading plans';

const SUPPORT: Readonly<Record<string, string>> = {
  basic: 'Basic support',
  priority_email: 'Priority email support',
  dedicated: 'Dedicated support',
};

const count = (limit: WireLimit, one: string, many: string): string =>
  `${displayLimit(limit)} ${limit === 1 ? one : many}`;
const isIncluded = (limit: WireLimit): boolean => limit === 'unlimited' || limit === -1 || limit > 0;

/** A plan's feature list; ∞ for unlimited (displayLimit). Team members and public projects only when offered. */
export function planFeatureLines(plan: PlanDto): PlanFeatureLine[] {
  const f = plan.features;
  const lines: PlanFeatureLine[] = [
    { label: count(f.prompts_per_month, 'prompt per month', 'prompts per month'), included: isIncluded(f.prompts_per_month) },
    { label: count(f.private_projects, 'private project', 'private projects'), included: isIncluded(f.private_projects) },
    { label: count(f.published_projects, 'published project', 'published projects'), included: isIncluded(f.published_projects) },
  ];
  if (isIncluded(f.public_projects)) lines.push({ label: count(f.public_projects, 'public project', 'public projects'), included: true });
  if (isIncluded(f.team_members)) lines.push({ label: count(f.team_members, 'team member', 'team members'), included: true });
  lines.push({ label: SUPPORT[f.support_level] ?? 'Support', included: true });
  return lines;
}

/**
 * A plan's price in the checkout currency (SPEC §9: ₹ with Indian grouping, $ otherwise), times
 * the multiplier for a paid plan (what checkout charges; integer minor units, as the server's checkoutPrice).
 */
export function planPrice(plan: PlanDto, currency: Currency, multiplier: ProMultiplier = 1): string {
  const money = moneyFromMajor(currency === 'INR' ? plan.price_inr : plan.price, currency);
  if (!money.ok) return '—';
  const times = plan.billing_interval === null ? 1 : multiplier;
  return formatMoney(moneyOf(money.value.amountMinor * times, money.value.currency));
}

/** SPEC §3 "Multiplier options 1x, 2x, 3x". */
export const MULTIPLIER_OPTIONS: readonly ProMultiplier[] = PRO_MULTIPLIERS;

/** /pricing: the plans in the visitor's currency, monthly or annual, the current one marked. */
@injectable()
export class PricingVm {
  plans: readonly PlanDto[] = [];
  status: LoadStatus = 'idle';
  error: string | null = null;
  /** USD until the server says otherwise (it decides, and checkout charges the same); never blocks the page. */
  currency: Currency = 'USD';
  countryCode: string | null = null;
  interval: PricingInterval = 'monthly';
  /** How many times the paid plan (price and prompts), chosen before checkout. */
  multiplier: ProMultiplier = 1;
  checkingOutPlanId: string | null = null;

  constructor(
    @inject(TYPES.PlansApi) private readonly plansApi: PlansApi,
    @inject(TYPES.CurrencyApi) private readonly currencyApi: CurrencyApi,
    @inject(TYPES.PaymentsApi) private readonly payments: PaymentsApi,
    @inject(TYPES.Session) private readonly session: SessionService,
    @inject(TYPES.Toasts) private readonly toasts: Toasts,
    @inject(TYPES.Analytics) private readonly analytics: Analytics,
    @inject(UI_TYPES.Navigation) private readonly navigation: Navigation,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
    @inject(SubscriptionStore) private readonly subscription: SubscriptionStore,
    @inject(CheckoutIntent) private readonly intent: CheckoutIntent,
  ) {
    makeAutoObservable<PricingVm, 'plansApi' | 'currencyApi' | 'payments' | 'session' | 'toasts' | 'analytics' | 'navigation' | 'logger' | 'subscription' | 'intent'>(
      this,
      {
        plansApi: false,
        currencyApi: false,
        payments: false,
        session: false,
        toasts: false,
        analytics: false,
        navigation: false,
        logger: false,
        subscription: false,
        intent: false,
      },
    );
  }

  /** The signed-in user's plan, from the shared subscription state (SPEC §3). */
  get currentPlanId(): string | null {
    return this.signedIn ? (this.subscription.currentPlan?.id ?? null) : null;
  }

  /** The line under the heading: "Start free" is for people not yet paying (issue #14 item 15). */
  get subtitle(): string {
    const plan = this.signedIn ? this.subscription.currentPlan : null;
    if (plan !== null && plan.billing_interval !== null) return `You're on ${plan.name}. Switch plans or add credits whenever you need to.`;
    return 'Start free. Upgrade when you need more prompts, unlimited projects and publishing.';
  }

  get signedIn(): boolean {
    return this.session.status === 'signed-in';
  }

  /** Loads plans; the currency and (when signed in) the current plan arrive on their own. */
  async load(): Promise<void> {
    this.status = 'loading';
    this.error = null;
    void this.detectCurrency();
    if (this.signedIn) void this.loadCurrentPlan();
    this.analytics.track('Subscription ViewPlan');
    try {
      const plans = await this.plansApi.list();
      runInAction(() => {
        this.plans = plans;
        this.status = 'ready';
      });
    } catch (error) {
      this.logger.error(PLANS_LOAD_ERROR, error);
      runInAction(() => {
        this.status = 'error';
        this.error = PLANS_LOAD_ERROR;
      });
    }
  }

  /** The server's decision; unreachable → USD with country null (SPEC §8), logged. */
  async detectCurrency(): Promise<void> {
    let decided: CheckoutCurrencyDto;
    try {
      decided = await this.currencyApi.decide(this.signedIn);
    } catch (error) {
      this.logger.error('Failed to detect location', error);
      decided = USD_FALLBACK;
    }
    runInAction(() => {
      this.currency = decided.currency;
      this.countryCode = decided.country_code;
    });
  }

  async loadCurrentPlan(): Promise<void> {
    await this.subscription.loadCurrentPlan();
  }

  setMultiplier(multiplier: ProMultiplier): void {
    this.multiplier = multiplier;
  }

  setInterval(interval: PricingInterval): void {
    this.interval = interval;
  }

  /** Whether the plans offer both intervals (otherwise the toggle is hidden). */
  get hasIntervalChoice(): boolean {
    return this.plans.some((p) => p.billing_interval === 'monthly') && this.plans.some((p) => p.billing_interval === 'annual');
  }

  /** How much cheaper a year on the annual plan is than twelve monthly payments, in whole percent. */
  get annualSavingsPercent(): number | null {
    const monthly = this.plans.find((p) => p.billing_interval === 'monthly');
    const annual = this.plans.find((p) => p.billing_interval === 'annual');
    if (monthly === undefined || annual === undefined) return null;
    const yearOfMonthly = this.currency === 'INR' ? monthly.annual_price_inr : monthly.annual_price;
    const yearOfAnnual = this.currency === 'INR' ? annual.price_inr : annual.price;
    if (yearOfMonthly <= 0 || yearOfAnnual >= yearOfMonthly) return null;
    return Math.round((1 - yearOfAnnual / yearOfMonthly) * 100);
  }

  /** Free plus the paid plans billed at the chosen interval. */
  get visiblePlans(): readonly PlanDto[] {
    if (!this.hasIntervalChoice) return this.plans;
    return this.plans.filter((p) => p.billing_interval === null || p.billing_interval === this.interval);
  }

  get cards(): readonly PlanCard[] {
    const paid = this.visiblePlans.filter((p) => p.billing_interval !== null);
    return this.visiblePlans.map((plan) => {
      const isCurrent = this.currentPlanId === plan.id;
      return {
        id: plan.id,
        name: plan.name,
        description: plan.description,
        price: planPrice(plan, this.currency, this.multiplier),
        per: `/${billingIntervalLabel(plan.billing_interval)}`,
        note: plan.billing_interval === null ? 'Free forever' : plan.billing_interval === 'annual' ? 'Billed yearly' : 'Billed monthly',
        features: planFeatureLines(plan),
        isCurrent,
        recommended: paid.length > 0 && plan.id === paid[0]?.id,
        action: this.actionFor(plan, isCurrent),
      };
    });
  }

  private actionFor(plan: PlanDto, isCurrent: boolean): PlanAction {
    if (isCurrent) return { kind: 'current', label: 'Current plan' };
    if (plan.billing_interval === null) {
      return this.signedIn
        ? { kind: 'link', label: 'Manage plan', to: '/settings?tab=plan' }
        : { kind: 'link', label: 'Start for free', to: '/get-started' };
    }
    if (!this.signedIn) return { kind: 'link', label: `Get ${plan.name}`, to: '/get-started' };
    return { kind: 'checkout', label: `Upgrade to ${plan.name}`, busy: this.checkingOutPlanId === plan.id };
  }

  /** Starts checkout and leaves for the payment page; SPEC §8 'Checkout Error' toast on failure. */
  async checkout(planId: string): Promise<void> {
    if (this.checkingOutPlanId !== null) return;
    this.checkingOutPlanId = planId;
    this.subscription.setUpgrading(true);
    this.analytics.track('Subscription ChangePlan', { plan_id: planId, currency: this.currency, multiplier: this.multiplier });
    try {
      const url = await this.payments.createCheckoutSession(planId, this.currency, this.multiplier);
      // From the pricing page the default return applies (to Settings).
      this.intent.remember('plan', null);
      // The button stays busy while the browser leaves for the payment page.
      this.navigation.assign(url);
    } catch (error) {
      this.logger.error(CHECKOUT_ERROR_DESCRIPTION, error);
      this.toasts.show({ title: CHECKOUT_ERROR_TITLE, description: CHECKOUT_ERROR_DESCRIPTION, variant: 'error' });
      runInAction(() => (this.checkingOutPlanId = null));
      this.subscription.setUpgrading(false);
      // 409 BILLING.CURRENCY_CHANGED: the server now charges another currency; show its prices.
      if (error instanceof ApiError && error.status === 409) await this.detectCurrency();
    }
  }
}

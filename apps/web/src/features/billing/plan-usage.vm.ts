import { billingIntervalLabel, clampProgress, displayLimit, formatMoney, isCurrency, moneyFromMajor, moneyOf, percentUsed } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { ApiError, type ProfileDto, type Toasts, TYPES } from '../../app/ports';
import { errorText } from '../../app/error-text';
import { type Logger, type Navigation, UI_TYPES } from '../../app/ui-ports';
import type { InvoiceDto, PaymentsApi } from '../../api/payments.api';
import type { CurrentPlanDto, PlansApi, WireLimit } from '../../api/plans.api';
import type { UsageApi, UsageStatsDto } from '../../api/usage.api';
import { PORTAL_NO_SUBSCRIPTION, SUBSCRIPTION_UPDATED_TOAST, SYNC_ERROR_TOAST, SYNC_FAILED, subscriptionDataError } from './billing-messages';
import { SubscriptionStore } from './subscription.store';

/** SPEC §2: Refer to Friends opens this in a new window. */
export const REFERRALS_TAB_PATH = '/settings?tab=referrals';

export type SectionStatus = 'loading' | 'ready' | 'error';
export type UsageTone = 'default' | 'warning' | 'destructive';

export interface UsageRow {
  readonly key: 'prompts' | 'private' | 'published';
  readonly label: string;
  readonly used: number;
  /** '5', '∞' (displayLimit). */
  readonly limit: string;
  readonly unlimited: boolean;
  /** 0–100, for the bar (SPEC §5 percentUsed, clamped). */
  readonly percent: number;
  readonly tone: UsageTone;
}

export interface CreditBreakdown {
  readonly total: number;
  readonly plan: number;
  readonly referral: number;
  readonly addOn: number;
}

/** Which of the SPEC §2 buttons the plan panel shows. */
export interface PlanButtons {
  /** Opens /pricing; hidden on limitless plans. */
  readonly viewPlans: boolean;
  /** Free plan. */
  readonly viewPricingPlans: boolean;
  /** Paid plans: starts a credit purchase. */
  readonly getMoreCredits: boolean;
  /** Needs a customer_id. */
  readonly manageSubscription: boolean;
  /** subscription_status active. */
  readonly earnMoreCredits: boolean;
  /** Otherwise: opens the referrals tab in a new window. */
  readonly referToFriends: boolean;
}

/** A line of the billing history as shown. */
export interface InvoiceRow {
  readonly id: string;
  /** ISO text (the view formats it). */
  readonly date: string;
  readonly description: string;
  /** '$25', '₹499', or '12.50 EUR' for a currency Kiln does not price in. */
  readonly amount: string;
  readonly status: string;
  readonly url: string | null;
}

/** Integer minor units in the currency's own format. */
export function invoiceAmount(amountMinor: number, currency: string): string {
  const code = currency.toUpperCase();
  if (isCurrency(code)) return formatMoney(moneyOf(amountMinor, code));
  return `${(amountMinor / 100).toFixed(2)} ${code}`;
}

const WARNING_AT = 80;
const FULL_AT = 100;

function toneFor(percent: number): UsageTone {
  if (percent >= FULL_AT) return 'destructive';
  if (percent >= WARNING_AT) return 'warning';
  return 'default';
}

function usageRow(key: UsageRow['key'], label: string, used: number, limit: WireLimit, fromApi?: number): UsageRow {
  const unlimited = limit === 'unlimited' || limit === -1;
  const percent = clampProgress(fromApi ?? percentUsed(used, unlimited ? 'unlimited' : limit));
  return { key, label, used, limit: displayLimit(limit), unlimited, percent: unlimited ? 0 : percent, tone: unlimited ? 'default' : toneFor(percent) };
}

/**
 * The plan & usage panel (SPEC §2 "usage-limits panel" and its buttons), the same in Settings and
 * in the builder: plan, usage limits, credits, which buttons show, and a manual "Sync
 * subscription" (SPEC §4). Reads and writes the shared SubscriptionStore.
 */
@injectable()
export class PlanUsageVm {
  status: SectionStatus = 'loading';
  /** SPEC §8 'Error loading subscription data: {error}', with the reason. */
  loadError: string | null = null;
  syncing = false;
  invoices: readonly InvoiceDto[] = [];
  invoicesStatus: SectionStatus = 'loading';
  /** The builder shows the panel in a dialog. */
  dialogOpen = false;

  constructor(
    @inject(SubscriptionStore) private readonly store: SubscriptionStore,
    @inject(TYPES.UsageApi) private readonly usageApi: UsageApi,
    @inject(TYPES.PlansApi) private readonly plansApi: PlansApi,
    @inject(TYPES.PaymentsApi) private readonly payments: PaymentsApi,
    @inject(TYPES.Toasts) private readonly toasts: Toasts,
    @inject(UI_TYPES.Navigation) private readonly navigation: Navigation,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
  ) {
    makeAutoObservable<PlanUsageVm, 'store' | 'usageApi' | 'plansApi' | 'payments' | 'toasts' | 'navigation' | 'logger'>(
      this,
      { store: false, usageApi: false, plansApi: false, payments: false, toasts: false, navigation: false, logger: false },
      { autoBind: true },
    );
  }

  get profile(): ProfileDto | null {
    return this.store.profile;
  }

  get usage(): UsageStatsDto | null {
    return this.store.usage;
  }

  get currentPlan(): CurrentPlanDto | null {
    return this.store.currentPlan;
  }

  /** Opens the builder's dialog with fresh numbers. */
  openDialog(): Promise<void> {
    this.dialogOpen = true;
    return this.load();
  }

  closeDialog(): void {
    this.dialogOpen = false;
  }

  /** Usage stats and the current plan (the panel needs both); the billing history beside them. */
  async load(): Promise<void> {
    void this.loadInvoices();
    this.status = 'loading';
    this.loadError = null;
    try {
      const [usage, currentPlan] = await Promise.all([this.usageApi.stats(), this.plansApi.current()]);
      runInAction(() => {
        this.store.setUsage(usage);
        this.store.setCurrentPlan(currentPlan);
        this.status = 'ready';
      });
    } catch (error) {
      const message = subscriptionDataError(errorText(error));
      this.logger.error(message, error);
      runInAction(() => {
        this.status = 'error';
        this.loadError = message;
      });
    }
  }

  /** The billing history; a failure is shown in its own section and offers a retry. */
  async loadInvoices(): Promise<void> {
    this.invoicesStatus = 'loading';
    try {
      const invoices = await this.payments.listInvoices();
      runInAction(() => {
        this.invoices = invoices;
        this.invoicesStatus = 'ready';
      });
    } catch (error) {
      this.logger.warn('Error loading billing history', error);
      runInAction(() => (this.invoicesStatus = 'error'));
    }
  }

  get invoiceRows(): readonly InvoiceRow[] {
    return this.invoices.map((i) => ({
      id: i.id,
      date: i.created_at,
      description: i.description,
      amount: invoiceAmount(i.amount_minor, i.currency),
      status: i.status,
      url: i.url,
    }));
  }

  /**
   * SPEC §4 manual sync: re-read the subscription from the payment provider, then the profile,
   * plan and usage. 'Subscription Updated' on success; no subscription at the provider says so;
   * anything else is the 'Sync Error' warning.
   */
  async sync(): Promise<void> {
    if (this.syncing) return;
    this.syncing = true;
    try {
      const synced = await this.payments.forceUpdateSubscription();
      if (synced.status === 'error') throw new Error(synced.message ?? SYNC_FAILED);
      await Promise.all([this.store.refreshProfile(), this.store.loadCurrentPlan(), this.store.loadUsage(), this.loadInvoices()]);
      this.toasts.show(SUBSCRIPTION_UPDATED_TOAST);
    } catch (error) {
      this.logger.error(SYNC_FAILED, error);
      if (error instanceof ApiError && error.status === 404) this.toasts.show({ title: SYNC_FAILED, description: PORTAL_NO_SUBSCRIPTION, variant: 'error' });
      else this.toasts.show(SYNC_ERROR_TOAST);
    } finally {
      runInAction(() => (this.syncing = false));
    }
  }

  /** The plan id the API resolved (unknown ids are free, SPEC §4), else the profile's. */
  get planId(): string {
    return this.currentPlan?.id ?? this.profile?.subscription_plan ?? 'free';
  }

  get isFreePlan(): boolean {
    return this.planId === 'free';
  }

  get planName(): string {
    return this.currentPlan?.name ?? 'Free';
  }

  /** '$25 / month', '₹24,000 / year', '$0 / month'. */
  get planPrice(): string {
    const plan = this.currentPlan;
    if (plan === null) return '';
    const money = moneyFromMajor(plan.price, plan.currency);
    return money.ok ? `${formatMoney(money.value)} / ${billingIntervalLabel(plan.billing_interval)}` : '';
  }

  get subscriptionActive(): boolean {
    return this.profile?.subscription_status === 'active';
  }

  /** The end of the current allowance cycle, ISO text (the view formats it). */
  get cycleEnd(): string | null {
    return this.usage?.cycle_end ?? this.profile?.billing_cycle_end_date ?? null;
  }

  get buttons(): PlanButtons {
    const limitless = this.usage?.is_limitless_plan ?? false;
    const customerId = this.profile?.customer_id ?? '';
    return {
      viewPlans: !limitless,
      viewPricingPlans: this.isFreePlan,
      getMoreCredits: !this.isFreePlan,
      manageSubscription: customerId.trim() !== '',
      earnMoreCredits: this.subscriptionActive,
      referToFriends: !this.subscriptionActive,
    };
  }

  get usageRows(): readonly UsageRow[] {
    const u = this.usage;
    if (u === null) return [];
    return [
      usageRow('prompts', 'Prompts this cycle', u.prompts_used, u.is_unlimited_prompts ? 'unlimited' : u.prompts_total, u.prompts_percent_used),
      usageRow(
        'private',
        'Private projects',
        u.private_projects_count,
        u.is_unlimited_private_projects ? 'unlimited' : u.private_projects_limit,
        u.private_projects_percent_used,
      ),
      usageRow(
        'published',
        'Published projects',
        u.published_projects_count,
        u.is_unlimited_published_projects ? 'unlimited' : u.published_projects_limit,
        u.published_projects_percent_used,
      ),
    ];
  }

  /** SPEC §9 total credits remaining = plan + referral + add-on, as the API computed it. */
  get credits(): CreditBreakdown | null {
    const u = this.usage;
    if (u === null) return null;
    return { total: u.credits_remaining, plan: u.credits_from_plan, referral: u.credits_from_referrals, addOn: u.credits_from_add_ons };
  }

  /** Nothing left to prompt with on a metered plan: the credit limit is reached. */
  get outOfCredits(): boolean {
    const u = this.usage;
    return u !== null && !u.is_unlimited_prompts && u.credits_remaining < 1;
  }

  /** Refer to Friends: the referrals tab in a new window (SPEC §2). */
  referToFriends(): void {
    this.navigation.openInNewWindow(REFERRALS_TAB_PATH);
  }
}

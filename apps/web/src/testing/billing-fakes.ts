// Test doubles for the billing view-models: a scripted PaymentsApi, plans and usage APIs, and
// timers whose sleeps wait until the test moves the clock.
import type { Timers } from '../app/ports';
import type { ForceUpdateResultDto, InvoiceDto, PaymentsApi } from '../api/payments.api';
import type { CurrentPlanDto, PlanDto, PlansApi } from '../api/plans.api';
import type { UsageApi, UsageStatsDto } from '../api/usage.api';
import { PLAN_DTOS, usageDto } from './api-fixtures';

type Reply<T> = T | Error | (() => Promise<T>);

async function answer<T>(reply: Reply<T>): Promise<T> {
  if (reply instanceof Error) throw reply;
  if (typeof reply === 'function') return (reply as () => Promise<T>)();
  return reply;
}

export const FREE_CURRENT: CurrentPlanDto = { id: 'free', name: 'Free', price: 0, currency: 'USD', billing_interval: null };
export const PRO_MONTHLY_CURRENT: CurrentPlanDto = { id: 'pro_monthly', name: 'Pro Monthly', price: 25, currency: 'USD', billing_interval: 'monthly' };

export const SYNCED_PRO_MONTHLY: ForceUpdateResultDto = {
  status: 'success',
  message: 'Subscription updated',
  plan: { id: 'pro_monthly', price: 25, currency: 'usd', billing_interval: 'monthly' },
  subscription: { id: 'sub_1', status: 'active' },
};

/** Every call is recorded in `calls`; replies are fields tests may replace. */
export class FakePaymentsApi implements PaymentsApi {
  readonly calls: string[] = [];
  checkoutReply: Reply<string> = 'https://pay.example/checkout';
  portalReply: Reply<string> = 'https://pay.example/portal';
  paymentLinkReply: Reply<string> = 'https://pay.example/addon';
  cancelReply: Reply<{ message: string | null }> = { message: null };
  forceUpdateReply: Reply<ForceUpdateResultDto> = SYNCED_PRO_MONTHLY;
  invoicesReply: Reply<readonly InvoiceDto[]> = [];

  createCheckoutSession(planId: string, currency?: string): Promise<string> {
    this.calls.push(currency === undefined ? `checkout:${planId}` : `checkout:${planId}:${currency}`);
    return answer(this.checkoutReply);
  }
  createCustomerPortal(): Promise<string> {
    this.calls.push('portal');
    return answer(this.portalReply);
  }
  createPaymentLink(): Promise<string> {
    this.calls.push('payment-link');
    return answer(this.paymentLinkReply);
  }
  cancelSubscription(subscriptionId: string): Promise<{ readonly message: string | null }> {
    this.calls.push(`cancel:${subscriptionId}`);
    return answer(this.cancelReply);
  }
  forceUpdateSubscription(): Promise<ForceUpdateResultDto> {
    this.calls.push('force-update');
    return answer(this.forceUpdateReply);
  }
  listInvoices(): Promise<readonly InvoiceDto[]> {
    this.calls.push('invoices');
    return answer(this.invoicesReply);
  }
}

export class FakePlansApi implements PlansApi {
  readonly calls: string[] = [];
  listReply: Reply<readonly PlanDto[]> = PLAN_DTOS;
  currentReply: Reply<CurrentPlanDto> = FREE_CURRENT;

  list(): Promise<readonly PlanDto[]> {
    this.calls.push('list');
    return answer(this.listReply);
  }
  current(): Promise<CurrentPlanDto> {
    this.calls.push('current');
    return answer(this.currentReply);
  }
}

export class FakeUsageApi implements UsageApi {
  calls = 0;
  reply: Reply<UsageStatsDto> = usageDto();
  stats(): Promise<UsageStatsDto> {
    this.calls += 1;
    return answer(this.reply);
  }
}

/**
 * Timers driven by hand: `sleep(ms)` resolves only when `advance` reaches its time, `every`
 * fires on each interval passed. `advance` lets promise callbacks run between steps.
 */
export class SteppedTimers implements Timers {
  private current: number;
  private readonly sleepers: { at: number; resolve: () => void }[] = [];
  private readonly intervals = new Set<{ ms: number; next: number; tick: () => void }>();

  constructor(start = 1_700_000_000_000) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  every(ms: number, tick: () => void): () => void {
    const entry = { ms, next: this.current + ms, tick };
    this.intervals.add(entry);
    return () => this.intervals.delete(entry);
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.sleepers.push({ at: this.current + ms, resolve }));
  }

  get pendingSleeps(): number {
    return this.sleepers.length;
  }

  get running(): number {
    return this.intervals.size;
  }

  async advance(ms: number): Promise<void> {
    const until = this.current + ms;
    for (;;) {
      await settleMicrotasks();
      const sleeper = [...this.sleepers].sort((a, b) => a.at - b.at)[0];
      const interval = [...this.intervals].sort((a, b) => a.next - b.next)[0];
      const nextAt = Math.min(sleeper?.at ?? Infinity, interval?.next ?? Infinity);
      if (nextAt > until) break;
      this.current = nextAt;
      if (sleeper !== undefined && sleeper.at === nextAt) {
        this.sleepers.splice(this.sleepers.indexOf(sleeper), 1);
        sleeper.resolve();
      } else if (interval !== undefined) {
        interval.next += interval.ms;
        interval.tick();
      }
    }
    this.current = until;
    await settleMicrotasks();
  }
}

async function settleMicrotasks(): Promise<void> {
  for (let i = 0; i < 30; i += 1) await Promise.resolve();
}

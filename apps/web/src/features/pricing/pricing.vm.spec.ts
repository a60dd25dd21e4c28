import { describe, expect, it } from '@jest/globals';
import { runInAction } from 'mobx';
import type { CheckoutCurrencyDto } from '../../api/currency.api';
import { ApiError, type Analytics, type SessionStatus } from '../../app/ports';
import type { PaymentsApi } from '../../api/payments.api';
import type { CurrentPlanDto, PlanDto, PlansApi } from '../../api/plans.api';
import { PLAN_DTOS } from '../../testing/api-fixtures';
import { FakeProfileApi, ManualTimers } from '../../testing/auth-fakes';
import { FakeUsageApi } from '../../testing/billing-fakes';
import { FakeNavigation, FakeSession, FakeToasts, MemoryStorage, RecordingLogger, flush } from '../../testing/ui-fakes';
import { CheckoutIntent } from '../billing/checkout-intent';
import { SubscriptionStore } from '../billing/subscription.store';
import { PricingVm, planFeatureLines } from './pricing.vm';

class FakePlansApi implements PlansApi {
  listCalls = 0;
  constructor(
    private readonly plans: readonly PlanDto[] | Error = PLAN_DTOS,
    private readonly currentPlan: CurrentPlanDto | Error = { id: 'free', name: 'Free', price: 0, currency: 'USD', billing_interval: null },
  ) {}
  async list(): Promise<readonly PlanDto[]> {
    this.listCalls += 1;
    if (this.plans instanceof Error) throw this.plans;
    return this.plans;
  }
  async current(): Promise<CurrentPlanDto> {
    if (this.currentPlan instanceof Error) throw this.currentPlan;
    return this.currentPlan;
  }
}

class FakePayments implements PaymentsApi {
  readonly checkouts: string[] = [];
  readonly currencies: (string | undefined)[] = [];
  readonly multipliers: (number | undefined)[] = [];
  constructor(private readonly reply: string | Error = 'https://pay.example/session/1') {}
  async createCheckoutSession(planId: string, currency?: string, multiplier?: number): Promise<string> {
    this.checkouts.push(planId);
    this.currencies.push(currency);
    this.multipliers.push(multiplier);
    if (this.reply instanceof Error) throw this.reply;
    return this.reply;
  }
  async createCustomerPortal(): Promise<string> {
    throw new Error('not used');
  }
  async createPaymentLink(): Promise<string> {
    throw new Error('not used');
  }
  async cancelSubscription(): Promise<{ message: string | null }> {
    throw new Error('not used');
  }
  async forceUpdateSubscription(): Promise<never> {
    throw new Error('not used');
  }
  async listInvoices(): Promise<never> {
    throw new Error('not used');
  }
}

/** What the server decided (it picks INR only for IN). */
const located = (countryCode: string | null, error: string | null = null): CheckoutCurrencyDto => ({
  currency: countryCode === 'IN' ? 'INR' : 'USD',
  country_code: countryCode,
  error,
});

function setup(
  options: {
    geo?: CheckoutCurrencyDto | 'throws' | 'never';
    status?: SessionStatus;
    plansApi?: FakePlansApi;
    payments?: FakePayments;
  } = {},
) {
  const geoReply = options.geo ?? located('US');
  const asked: boolean[] = [];
  const geo = {
    decide: (signedIn: boolean): Promise<CheckoutCurrencyDto> => {
      asked.push(signedIn);
      if (geoReply === 'throws') return Promise.reject(new Error('offline'));
      if (geoReply === 'never') return new Promise(() => undefined);
      return Promise.resolve(geoReply);
    },
  };
  const events: string[] = [];
  const analytics: Analytics = { pageView: () => undefined, track: (e) => events.push(e), purchase: () => undefined };
  const toasts = new FakeToasts();
  const navigation = new FakeNavigation();
  const plansApi = options.plansApi ?? new FakePlansApi();
  const payments = options.payments ?? new FakePayments();
  const session = new FakeSession(options.status ?? 'signed-out');
  const logger = new RecordingLogger();
  const store = new SubscriptionStore(session, new FakeProfileApi(), plansApi, new FakeUsageApi(), new ManualTimers(), logger);
  const vm = new PricingVm(plansApi, geo, payments, session, toasts, analytics, navigation, logger, store, new CheckoutIntent(new MemoryStorage()));
  return { vm, toasts, navigation, payments, events, store, asked, logger };
}

async function loaded(options: Parameters<typeof setup>[0] = {}) {
  const s = setup(options);
  await s.vm.load();
  await flush();
  return s;
}

describe('PricingVm: currency (SPEC §9)', () => {
  it('shows INR with the rupee sign and Indian grouping when the country is IN', async () => {
    const { vm } = await loaded({ geo: located('IN') });
    expect(vm.currency).toBe('INR');
    expect(vm.cards.map((c) => c.price)).toEqual(['₹0', '₹2,499']);
    vm.setInterval('annual');
    expect(vm.cards.map((c) => c.price)).toEqual(['₹0', '₹24,000']);
  });

  it('shows USD with the dollar sign anywhere else', async () => {
    const { vm } = await loaded({ geo: located('DE') });
    expect(vm.currency).toBe('USD');
    expect(vm.cards.map((c) => c.price)).toEqual(['$0', '$25']);
  });

  it('falls back to USD when the server fell back or cannot be reached', async () => {
    for (const geo of [located(null, 'HTTP error! status: 500'), 'throws' as const, located(null)]) {
      const { vm } = await loaded({ geo });
      expect(vm.currency).toBe('USD');
      expect(vm.countryCode).toBeNull();
    }
  });

  it('asks the server to store the decision only for a signed-in person', async () => {
    expect((await loaded({ status: 'signed-out' })).asked).toEqual([false]);
    expect((await loaded({ status: 'signed-in' })).asked).toEqual([true]);
  });

  it('checkout names the currency shown, so the server charges exactly that', async () => {
    const { vm, payments } = await loaded({ geo: located('IN'), status: 'signed-in' });
    await vm.checkout('pro_monthly');
    expect(payments.currencies).toEqual(['INR']);
  });

  it('the 1x/2x/3x multiplier multiplies the paid price shown (never free) and is sent with checkout', async () => {
    const { vm, payments } = await loaded({ geo: located('IN'), status: 'signed-in' });
    expect(vm.multiplier).toBe(1);
    vm.setMultiplier(3);
    expect(vm.cards.map((c) => c.price)).toEqual(['₹0', '₹7,497']);
    vm.setInterval('annual');
    expect(vm.cards.map((c) => c.price)).toEqual(['₹0', '₹72,000']);
    vm.setInterval('monthly');
    vm.setMultiplier(2);
    await vm.checkout('pro_monthly');
    expect(payments.multipliers).toEqual([2]);
  });

  it('does not wait for detection: plans show in USD while it is pending', async () => {
    const { vm } = await loaded({ geo: 'never' });
    expect(vm.status).toBe('ready');
    expect(vm.cards.map((c) => c.price)).toEqual(['$0', '$25']);
  });
});

describe('PricingVm: plans and interval', () => {
  it('shows free and the monthly plan by default, free and the annual plan for annual', async () => {
    const { vm } = await loaded();
    expect(vm.hasIntervalChoice).toBe(true);
    expect(vm.cards.map((c) => c.id)).toEqual(['free', 'pro_monthly']);
    expect(vm.cards.map((c) => c.per)).toEqual(['/month', '/month']);

    vm.setInterval('annual');

    expect(vm.cards.map((c) => c.id)).toEqual(['free', 'pro_annual']);
    expect(vm.cards[1]).toMatchObject({ price: '$240', per: '/year', note: 'Billed yearly', recommended: true });
  });

  it('computes the annual saving from the API prices: 240 against 12 × 25 is 20%', async () => {
    const { vm } = await loaded();
    expect(vm.annualSavingsPercent).toBe(20);
  });

  it('lists features with ∞ for unlimited and marks what a plan lacks', () => {
    const [free, pro] = [PLAN_DTOS[0], PLAN_DTOS[1]] as [PlanDto, PlanDto];
    expect(planFeatureLines(free)).toEqual([
      { label: '5 prompts per month', included: true },
      { label: '3 private projects', included: true },
      { label: '0 published projects', included: false },
      { label: 'Basic support', included: true },
    ]);
    expect(planFeatureLines(pro)).toEqual([
      { label: '25 prompts per month', included: true },
      { label: '∞ private projects', included: true },
      { label: '∞ published projects', included: true },
      { label: 'Priority email support', included: true },
    ]);
  });

  it('reports a failed plan load', async () => {
    const { vm } = await loaded({ plansApi: new FakePlansApi(new Error('down')) });
    expect(vm.status).toBe('error');
    expect(vm.error).toBe('An error occurred loading plans');
  });

  it('tracks the plan view', async () => {
    const { events } = await loaded();
    expect(events).toContain('Subscription ViewPlan');
  });
});

describe('PricingVm: current plan and actions', () => {
  it('signed out: no plan is current and every button leads to sign-up', async () => {
    const { vm } = await loaded();
    expect(vm.cards.map((c) => c.isCurrent)).toEqual([false, false]);
    expect(vm.cards.map((c) => c.action)).toEqual([
      { kind: 'link', label: 'Start for free', to: '/get-started' },
      { kind: 'link', label: 'Get Pro Monthly', to: '/get-started' },
    ]);
  });

  it('signed in: marks the current plan and offers checkout for the others', async () => {
    const { vm } = await loaded({ status: 'signed-in' });
    expect(vm.currentPlanId).toBe('free');
    expect(vm.cards.map((c) => c.action)).toEqual([
      { kind: 'current', label: 'Current plan' },
      { kind: 'checkout', label: 'Upgrade to Pro Monthly', busy: false },
    ]);
  });

  it('signed in on Pro Monthly: that card is current, free links to settings', async () => {
    const plansApi = new FakePlansApi(PLAN_DTOS, {
      id: 'pro_monthly',
      name: 'Pro Monthly',
      price: 25,
      currency: 'USD',
      billing_interval: 'monthly',
    });
    const { vm } = await loaded({ status: 'signed-in', plansApi });
    expect(vm.cards.map((c) => [c.id, c.isCurrent])).toEqual([
      ['free', false],
      ['pro_monthly', true],
    ]);
    expect(vm.cards[0]?.action).toEqual({ kind: 'link', label: 'Manage plan', to: '/settings?tab=plan' });
    expect(vm.subtitle).toBe("You're on Pro Monthly. Switch plans or add credits whenever you need to.");
  });

  it('invites to start free only people who are not paying', async () => {
    expect((await loaded()).vm.subtitle).toMatch(/^Start free\./);
    expect((await loaded({ status: 'signed-in' })).vm.subtitle).toMatch(/^Start free\./);
  });

  it('checkout sends the plan id and goes to the returned URL, busy until the page leaves', async () => {
    const { vm, payments, navigation, events, store } = await loaded({ status: 'signed-in' });

    const pending = vm.checkout('pro_monthly');
    expect(vm.cards[1]?.action).toEqual({ kind: 'checkout', label: 'Upgrade to Pro Monthly', busy: true });
    expect(store.upgrading).toBe(true);
    await pending;

    expect(payments.checkouts).toEqual(['pro_monthly']);
    expect(navigation.assigned).toEqual(['https://pay.example/session/1']);
    expect(events).toContain('Subscription ChangePlan');
  });

  it("a failed checkout shows the 'Checkout Error' toast and frees the button", async () => {
    const { vm, toasts, navigation, store } = await loaded({
      status: 'signed-in',
      payments: new FakePayments(new Error('Cannot POST /api/payment/create-checkout-session')),
    });

    await vm.checkout('pro_monthly');

    expect(toasts.shown).toEqual([{ title: 'Checkout Error', description: 'Failed to redirect to checkout', variant: 'error' }]);
    expect(navigation.assigned).toEqual([]);
    expect(vm.checkingOutPlanId).toBeNull();
    expect(store.upgrading).toBe(false);
  });

  it('a 409 (the currency changed meanwhile) shows the server’s prices again', async () => {
    const refused = new ApiError('Prices are now shown in INR.', 409, 'BILLING.CURRENCY_CHANGED', {});
    const { vm, asked } = await loaded({ status: 'signed-in', geo: located('IN'), payments: new FakePayments(refused) });
    runInAction(() => (vm.currency = 'USD')); // shown before the decision arrived
    await vm.checkout('pro_monthly');
    expect(asked).toEqual([true, true]);
    expect(vm.currency).toBe('INR');
  });

  it('ignores a second checkout while one is under way', async () => {
    const { vm, payments } = await loaded({ status: 'signed-in' });
    const first = vm.checkout('pro_monthly');
    await vm.checkout('pro_annual');
    await first;
    expect(payments.checkouts).toEqual(['pro_monthly']);
  });
});

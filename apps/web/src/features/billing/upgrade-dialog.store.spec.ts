import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../app/ports';
import { FREE_PLAN_DTO, PLAN_DTOS, PRO_ANNUAL_DTO, PRO_MONTHLY_DTO } from '../../testing/api-fixtures';
import { FakeProfileApi } from '../../testing/auth-fakes';
import { FakePaymentsApi, FakePlansApi, FakeUsageApi, PRO_MONTHLY_CURRENT, SteppedTimers } from '../../testing/billing-fakes';
import { FakeNavigation, FakeSession, FakeToasts, MemoryStorage, RecordingLogger, flush } from '../../testing/ui-fakes';
import { CheckoutIntent } from './checkout-intent';
import { SubscriptionStore } from './subscription.store';
import { LIMIT_COPY, UpgradeDialogStore, limitTypeOf, nextPlan } from './upgrade-dialog.store';

function setup(country: string | null = 'US') {
  const plansApi = new FakePlansApi();
  const logger = new RecordingLogger();
  const store = new SubscriptionStore(new FakeSession('signed-in'), new FakeProfileApi(), plansApi, new FakeUsageApi(), new SteppedTimers(), logger);
  const payments = new FakePaymentsApi();
  const toasts = new FakeToasts();
  const navigation = new FakeNavigation();
  // The server decides (INR only for IN) and stores it: the dialog always asks as the signed-in person.
  const geo = { decide: async (signedIn: boolean) => ({ currency: signedIn && country === 'IN' ? ('INR' as const) : ('USD' as const), country_code: country, error: null }) };
  const intent = new CheckoutIntent(new MemoryStorage());
  const dialog = new UpgradeDialogStore(store, payments, geo, toasts, navigation, logger, intent);
  return { intent, dialog, store, plansApi, payments, toasts, navigation, logger };
}

describe('limit types (SPEC §4)', () => {
  it('each limit type has its own title and message', () => {
    expect(LIMIT_COPY.credit.title).toBe("You've used all your credits");
    const titles = Object.values(LIMIT_COPY).map((c) => c.title);
    const messages = Object.values(LIMIT_COPY).map((c) => c.message);
    expect(new Set(titles).size).toBe(4);
    expect(new Set(messages).size).toBe(4);
  });

  it("reads a 402 reply's limit_type; other errors are no limit", () => {
    const limit = (body: unknown, status = 402) => limitTypeOf(new ApiError('x', status, 'CREDITS.LIMIT_REACHED', body));
    expect(limit({ limit_type: 'credit' })).toBe('credit');
    expect(limit({ limit_type: 'project' })).toBe('project');
    expect(limit({ limit_type: 'published' })).toBe('published');
    expect(limit({})).toBe('prompt');
    expect(limit({ limit_type: 'galaxy' })).toBe('prompt');
    expect(limitTypeOf(new ApiError('x', 402, null, null), 'project')).toBe('project');
    expect(limit({ limit_type: 'credit' }, 400)).toBeNull();
    expect(limitTypeOf(new Error('x'))).toBeNull();
  });
});

describe('nextPlan', () => {
  it('free → the monthly plan; monthly → the annual plan; annual → nothing', () => {
    expect(nextPlan(PLAN_DTOS, 'free', 'USD')?.id).toBe('pro_monthly');
    expect(nextPlan(PLAN_DTOS, 'pro_monthly', 'USD')).toBeNull(); // 240/year is not above 25 × 12
    expect(nextPlan(PLAN_DTOS, 'pro_annual', 'USD')).toBeNull();
    expect(nextPlan([FREE_PLAN_DTO, PRO_ANNUAL_DTO], 'free', 'USD')?.id).toBe('pro_annual');
    expect(nextPlan([FREE_PLAN_DTO], 'free', 'USD')).toBeNull();
    expect(nextPlan(PLAN_DTOS, 'unknown', 'INR')?.id).toBe('pro_monthly'); // unknown plans are free (SPEC §4)
  });

  it('a pricier monthly tier is next for a monthly subscriber', () => {
    const premium = { ...PRO_MONTHLY_DTO, id: 'premium', name: 'Premium', price: 50, price_inr: 4999, annual_price: 600 };
    expect(nextPlan([...PLAN_DTOS, premium], 'pro_monthly', 'USD')?.id).toBe('premium');
  });
});

describe('UpgradeDialogStore', () => {
  it('opens by limit type: loading, then the next plan with its price', async () => {
    const t = setup();
    const opened = t.dialog.open('credit');
    expect(t.dialog.isOpen).toBe(true);
    expect(t.dialog.state).toEqual({ kind: 'loading' });
    expect(t.dialog.copy).toEqual(LIMIT_COPY.credit);
    await opened;
    expect(t.dialog.state).toEqual({
      kind: 'plan',
      plan: { id: 'pro_monthly', name: 'Pro Monthly', description: PRO_MONTHLY_DTO.description, price: '$25', per: 'month' },
    });
  });

  it('prices in rupees for India', async () => {
    const t = setup('IN');
    await t.dialog.open('project');
    expect(t.dialog.state).toMatchObject({ kind: 'plan', plan: { price: '₹2,499' } });
    await t.dialog.upgrade();
    // Checkout names the currency shown: the server refuses to charge another.
    expect(t.payments.calls).toEqual(['checkout:pro_monthly:INR']);
  });

  it('defaults to the prompt limit', async () => {
    const t = setup();
    await t.dialog.open();
    expect(t.dialog.limitType).toBe('prompt');
  });

  it('plan unavailable when nothing is above the current plan', async () => {
    const t = setup();
    t.plansApi.currentReply = { ...PRO_MONTHLY_CURRENT, id: 'pro_annual', name: 'Pro Annual', price: 240, billing_interval: 'annual' };
    await t.dialog.open('published');
    expect(t.dialog.state).toEqual({ kind: 'unavailable' });
  });

  it('error when the plans cannot be loaded; Try again recovers', async () => {
    const t = setup();
    t.plansApi.listReply = new Error('down');
    await t.dialog.open('credit');
    expect(t.dialog.state).toEqual({ kind: 'error', message: 'Unable to load plan details' });
    t.plansApi.listReply = PLAN_DTOS;
    await t.dialog.load();
    expect(t.dialog.state.kind).toBe('plan');
  });

  it('Upgrade starts checkout for the offered plan and leaves for the payment page', async () => {
    const t = setup();
    await t.dialog.open('credit');
    const pending = t.dialog.upgrade();
    expect(t.dialog.upgrading).toBe(true);
    t.dialog.close(); // cannot close while leaving
    expect(t.dialog.isOpen).toBe(true);
    await pending;
    expect(t.payments.calls).toEqual(['checkout:pro_monthly:USD']);
    expect(t.navigation.assigned).toEqual(['https://pay.example/checkout']);
  });

  it('remembers a plan checkout and the (safe) path it was started from, to come back to', async () => {
    const t = setup();
    await t.dialog.open('credit');
    await t.dialog.upgrade('/builder/p1');
    expect(t.intent.take()).toEqual({ kind: 'plan', returnPath: '/builder/p1' });
    const other = setup();
    await other.dialog.open('credit');
    await other.dialog.upgrade('https://evil.example/');
    expect(other.intent.take()).toEqual({ kind: 'plan', returnPath: null });
  });

  it("a failed checkout shows 'Upgrade Error' and frees the button", async () => {
    const t = setup();
    t.payments.checkoutReply = new Error('Request failed');
    await t.dialog.open('credit');
    await t.dialog.upgrade();
    expect(t.toasts.shown).toEqual([
      { title: 'Upgrade Error', description: 'There was a problem processing your upgrade. Please try again.', variant: 'error' },
    ]);
    expect(t.dialog.upgrading).toBe(false);
    expect(t.navigation.assigned).toEqual([]);
  });

  it('openFor opens on a 402 with its limit type and ignores other errors', async () => {
    const t = setup();
    expect(t.dialog.openFor(new ApiError('Request failed', 500, null, null))).toBe(false);
    expect(t.dialog.isOpen).toBe(false);
    expect(t.dialog.openFor(new ApiError('No credits', 402, 'CREDITS.LIMIT_REACHED', { limit_type: 'credit' }))).toBe(true);
    await flush();
    expect(t.dialog.limitType).toBe('credit');
    expect(t.dialog.state.kind).toBe('plan');
  });

  it('closing while loading discards the late answer', async () => {
    const t = setup();
    const opened = t.dialog.open('credit');
    t.dialog.close();
    await opened;
    expect(t.dialog.state).toEqual({ kind: 'closed' });
  });
});

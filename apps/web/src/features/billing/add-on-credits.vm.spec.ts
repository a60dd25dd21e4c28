import { describe, expect, it } from '@jest/globals';
import { ADDON_PACK_CREDITS } from '@kiln/domain';
import { FakeProfileApi, profileDto } from '../../testing/auth-fakes';
import { FakePaymentsApi, FakePlansApi, FakeUsageApi, SteppedTimers } from '../../testing/billing-fakes';
import { FakeNavigation, FakeSession, MemoryStorage, RecordingLogger } from '../../testing/ui-fakes';
import { SubscriptionStore } from './subscription.store';
import { AddOnCreditsVm } from './add-on-credits.vm';
import { CheckoutIntent } from './checkout-intent';
import { IntentionalExit } from './intentional-exit';

function setup(currency: 'USD' | 'INR' | null = 'USD') {
  const store = new SubscriptionStore(new FakeSession('signed-in'), new FakeProfileApi(), new FakePlansApi(), new FakeUsageApi(), new SteppedTimers(), new RecordingLogger());
  if (currency !== null) store.setProfile(profileDto({ preferred_currency: currency }));
  const payments = new FakePaymentsApi();
  const exit = new IntentionalExit();
  const navigation = new FakeNavigation();
  const logger = new RecordingLogger();
  const intent = new CheckoutIntent(new MemoryStorage());
  const vm = new AddOnCreditsVm(store, payments, exit, navigation, logger, intent);
  return { intent, vm, payments, exit, navigation, logger };
}

describe('AddOnCreditsVm (SPEC §2, §4, §9)', () => {
  it('offers the domain pack of 500 credits', () => {
    expect(setup().vm.credits).toBe(ADDON_PACK_CREDITS);
    expect(ADDON_PACK_CREDITS).toBe(500);
  });

  it('shows the configured pack price in the currency create-payment-link charges (the profile’s)', () => {
    expect(setup('USD').vm.price).toEqual({ kind: 'known', text: '$9.99' });
    expect(setup('INR').vm.price).toEqual({ kind: 'known', text: '₹499' });
  });

  it('shows no price rather than a guessed one while the profile is unknown', () => {
    const t = setup(null);
    expect(t.vm.price).toEqual({ kind: 'unknown' });
    t.vm.open();
    expect(t.vm.canBuy).toBe(true);
  });

  it('Buy Now: disabled while buying, marks an intentional exit, then goes to the payment link', async () => {
    const t = setup();
    t.vm.open();
    const pending = t.vm.buy();
    expect(t.vm.buying).toBe(true);
    expect(t.vm.canBuy).toBe(false);
    expect(t.exit.marked).toBe(true);
    await t.vm.buy(); // a second click does nothing
    t.vm.close(); // cannot close while buying
    expect(t.vm.isOpen).toBe(true);
    await pending;
    expect(t.payments.calls.filter((c) => c === 'payment-link')).toEqual(['payment-link']);
    expect(t.navigation.assigned).toEqual(['https://pay.example/addon']);
  });

  it('remembers an add-on purchase and the path it was started from, to come back to', async () => {
    const t = setup();
    t.vm.open();
    await t.vm.buy('/builder/p1');
    expect(t.intent.take()).toEqual({ kind: 'add_on', returnPath: '/builder/p1' });
  });

  it('a failed purchase is only logged and the dialog closes (SPEC §8)', async () => {
    const t = setup();
    t.payments.paymentLinkReply = new Error('Request failed');
    t.vm.open();
    await t.vm.buy();
    expect(t.vm.isOpen).toBe(false);
    expect(t.vm.buying).toBe(false);
    expect(t.exit.marked).toBe(false);
    expect(t.navigation.assigned).toEqual([]);
    expect(t.logger.lines).toEqual(['error: Credit purchase failed']);
  });

  it('cannot buy while closed', async () => {
    const t = setup();
    await t.vm.buy();
    expect(t.payments.calls).toEqual([]);
  });
});

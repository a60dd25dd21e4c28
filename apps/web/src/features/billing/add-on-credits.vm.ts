import { ADDON_PACK_CREDITS, ADDON_PACK_PRICE_MINOR, createMoney, formatMoney } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { TYPES } from '../../app/ports';
import { type Logger, type Navigation, UI_TYPES } from '../../app/ui-ports';
import type { PaymentsApi } from '../../api/payments.api';
import { CheckoutIntent } from './checkout-intent';
import { IntentionalExit } from './intentional-exit';
import { SubscriptionStore } from './subscription.store';

export const ADD_ON_DIALOG_TITLE = 'Add-On Credits';
export const ADD_ON_FEATURES = ['One-time purchase', 'Credits never expire', 'Instant activation'] as const;
export const CREDIT_PURCHASE_FAILED = 'Credit purchase failed';

export type PackPrice = { readonly kind: 'known'; readonly text: string } | { readonly kind: 'unknown' };

/**
 * The Add-On Credits dialog (SPEC §2, §4, §9): 500 credits, one-time, no expiration, instant
 * activation. The price shown is the price charged (docs/decisions.md): the configured pack
 * price (domain ADDON_PACK_PRICE_MINOR) in the profile's currency, which is what
 * create-payment-link charges; without a loaded profile no price is shown rather than a guess.
 * Buy Now is disabled while buying; buying marks an intentional exit, then the browser goes to
 * the payment link. A failure is only logged and the dialog closes (SPEC §8).
 */
@injectable()
export class AddOnCreditsVm {
  isOpen = false;
  buying = false;
  readonly credits = ADDON_PACK_CREDITS;

  constructor(
    @inject(SubscriptionStore) private readonly store: SubscriptionStore,
    @inject(TYPES.PaymentsApi) private readonly payments: PaymentsApi,
    @inject(IntentionalExit) private readonly exit: IntentionalExit,
    @inject(UI_TYPES.Navigation) private readonly navigation: Navigation,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
    @inject(CheckoutIntent) private readonly intent: CheckoutIntent,
  ) {
    makeAutoObservable<AddOnCreditsVm, 'store' | 'payments' | 'exit' | 'navigation' | 'logger' | 'intent'>(
      this,
      { store: false, payments: false, exit: false, navigation: false, logger: false, intent: false, credits: false },
      { autoBind: true },
    );
  }

  /** The pack's price in the currency create-payment-link charges (the profile's). */
  get price(): PackPrice {
    const profile = this.store.profile;
    if (profile === null) return { kind: 'unknown' };
    const currency = profile.preferred_currency === 'INR' ? 'INR' : 'USD';
    const money = createMoney(ADDON_PACK_PRICE_MINOR[currency], currency);
    return money.ok ? { kind: 'known', text: formatMoney(money.value) } : { kind: 'unknown' };
  }

  get canBuy(): boolean {
    return this.isOpen && !this.buying;
  }

  open(): void {
    if (this.isOpen) return;
    this.isOpen = true;
  }

  close(): void {
    if (this.buying) return;
    this.isOpen = false;
  }

  /** `returnPath`: the in-app path to come back to once the credits are added (where the dialog was opened). */
  async buy(returnPath?: string): Promise<void> {
    if (!this.canBuy) return;
    this.buying = true;
    this.exit.mark();
    try {
      const url = await this.payments.createPaymentLink();
      this.intent.remember('add_on', returnPath);
      // Stays "buying" while the browser leaves for the payment page.
      this.navigation.assign(url);
    } catch (error) {
      this.logger.error(CREDIT_PURCHASE_FAILED, error);
      this.exit.clear();
      runInAction(() => {
        this.buying = false;
        this.isOpen = false;
      });
    }
  }
}

import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { ApiError, type Toasts, TYPES } from '../../app/ports';
import { type Logger, type Navigation, UI_TYPES } from '../../app/ui-ports';
import { PORTAL_NO_LINK, type PaymentsApi } from '../../api/payments.api';
import {
  CANCEL_FAILED,
  PORTAL_ACCESS_ERROR_TITLE,
  PORTAL_ERROR_TOAST,
  PORTAL_INLINE_ERROR,
  PORTAL_NO_SUBSCRIPTION,
  PORTAL_NOT_SIGNED_IN,
  PORTAL_UNAVAILABLE,
  PORTAL_UNVERIFIED,
} from './billing-messages';
import { SubscriptionStore } from './subscription.store';

export const SUBSCRIPTION_CANCELED_TITLE = 'Subscription canceled';
export const SUBSCRIPTION_CANCELED_DEFAULT =
  'Your plan stays active until the end of the current billing period. Purchased add-on credits are kept.';

/**
 * Settings → Plan & usage: Manage Subscription (the provider's customer portal, SPEC §8 portal
 * errors) and Cancel subscription (with a confirmation step).
 */
@injectable()
export class BillingActionsVm {
  openingPortal = false;
  /** SPEC §8's inline message under the button when the portal cannot be reached. */
  portalError: string | null = null;

  confirmingCancel = false;
  canceling = false;
  cancelError: string | null = null;

  constructor(
    @inject(SubscriptionStore) private readonly store: SubscriptionStore,
    @inject(TYPES.PaymentsApi) private readonly payments: PaymentsApi,
    @inject(TYPES.Toasts) private readonly toasts: Toasts,
    @inject(UI_TYPES.Navigation) private readonly navigation: Navigation,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
  ) {
    makeAutoObservable<BillingActionsVm, 'store' | 'payments' | 'toasts' | 'navigation' | 'logger'>(
      this,
      { store: false, payments: false, toasts: false, navigation: false, logger: false },
      { autoBind: true },
    );
  }

  /** Cancel subscription is offered for an active subscription with an id. */
  get canCancel(): boolean {
    const p = this.store.profile;
    return p !== null && (p.subscription_id ?? '').trim() !== '' && p.subscription_status === 'active';
  }

  async manageSubscription(): Promise<void> {
    if (this.openingPortal) return;
    this.portalError = null;
    if (!this.store.signedIn) {
      this.portalError = PORTAL_NOT_SIGNED_IN;
      return;
    }
    const profile = this.store.profile;
    if (profile === null) {
      this.toasts.show({ title: PORTAL_ACCESS_ERROR_TITLE, description: PORTAL_UNVERIFIED, variant: 'error' });
      return;
    }
    if ((profile.customer_id ?? '').trim() === '') {
      this.toasts.show({ title: PORTAL_ACCESS_ERROR_TITLE, description: PORTAL_NO_SUBSCRIPTION, variant: 'error' });
      return;
    }
    this.openingPortal = true;
    try {
      const url = await this.payments.createCustomerPortal();
      // Stays busy while the browser leaves for the portal.
      this.navigation.assign(url);
    } catch (error) {
      this.logger.error(PORTAL_ACCESS_ERROR_TITLE, error);
      const noLink = error instanceof Error && error.message === PORTAL_NO_LINK;
      const noSubscription = error instanceof ApiError && (error.status === 404 || error.status === 409);
      runInAction(() => {
        this.openingPortal = false;
        this.portalError = PORTAL_INLINE_ERROR;
      });
      if (noLink) this.toasts.show({ title: PORTAL_ACCESS_ERROR_TITLE, description: PORTAL_UNAVAILABLE, variant: 'error' });
      else if (noSubscription) this.toasts.show({ title: PORTAL_ACCESS_ERROR_TITLE, description: PORTAL_NO_SUBSCRIPTION, variant: 'error' });
      else this.toasts.show(PORTAL_ERROR_TOAST);
    }
  }

  askToCancel(): void {
    this.cancelError = null;
    this.confirmingCancel = true;
  }

  dismissCancel(): void {
    if (this.canceling) return;
    this.confirmingCancel = false;
    this.cancelError = null;
  }

  /** POST /api/cancel-subscription with the profile's subscription id; then the state reloads. */
  async confirmCancel(): Promise<void> {
    if (this.canceling) return;
    const subscriptionId = (this.store.profile?.subscription_id ?? '').trim();
    if (subscriptionId === '') {
      this.cancelError = CANCEL_FAILED;
      return;
    }
    this.canceling = true;
    this.cancelError = null;
    try {
      const reply = await this.payments.cancelSubscription(subscriptionId);
      runInAction(() => {
        this.canceling = false;
        this.confirmingCancel = false;
      });
      this.toasts.show({ title: SUBSCRIPTION_CANCELED_TITLE, description: reply.message ?? SUBSCRIPTION_CANCELED_DEFAULT, variant: 'success' });
      await Promise.all([this.store.refreshProfile(), this.store.loadCurrentPlan(), this.store.loadUsage()]);
    } catch (error) {
      this.logger.error(CANCEL_FAILED, error);
      runInAction(() => {
        this.canceling = false;
        this.cancelError = CANCEL_FAILED;
      });
      this.toasts.show({ title: CANCEL_FAILED, variant: 'error' });
    }
  }
}

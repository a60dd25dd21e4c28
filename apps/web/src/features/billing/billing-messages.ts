// SPEC §8 billing toasts and portal messages, verbatim, and the §9 timers of the subscription flow.
import type { ToastInput } from '../../app/ports';

export const UPDATING_SUBSCRIPTION_TOAST: ToastInput = {
  title: 'Updating Subscription',
  variant: 'info',
};
export const SUBSCRIPTION_UPDATED_TOAST: ToastInput = {
  title: 'Subscription Updated',
  variant: 'success',
};
/** After an add-on pack is paid and synced: '500 credits added'. */
export function creditsAddedToast(credits: number): ToastInput {
  return { title: `${credits.toLocaleString('en-US')} credits added`, variant: 'success' };
}
export const SYNC_ERROR_TOAST: ToastInput = {
  title: 'Sync Error',
  description: 'There was an issue syncing your subscription. Please try refreshing.',
  variant: 'warning',
};
export const CHECKOUT_CANCELED_TOAST: ToastInput = {
  title: 'Checkout Canceled',
  description: 'Your subscription update was canceled.',
  variant: 'info',
};
export const UPDATE_ERROR_TOAST: ToastInput = {
  title: 'Error',
  description: 'There was a problem updating your subscription. Please refresh the page.',
  variant: 'error',
};
export const PORTAL_ERROR_TOAST: ToastInput = {
  title: 'Portal Error',
  description: 'Failed to navigate to the secure payment portal. Please try again.',
  variant: 'error',
};
export const UPGRADE_ERROR_TOAST: ToastInput = {
  title: 'Upgrade Error',
  description: 'There was a problem processing your upgrade. Please try again.',
  variant: 'error',
};
export const CHECKOUT_ERROR_TOAST: ToastInput = {
  title: 'Checkout Error',
  description: 'Failed to redirect to checkout',
  variant: 'error',
};

export const PORTAL_ACCESS_ERROR_TITLE = 'Portal Access Error';
export const PORTAL_NO_SUBSCRIPTION = 'No active subscription found. Please subscribe first.';
export const PORTAL_UNVERIFIED = 'Unable to verify your subscription. Please refresh and try again.';
export const PORTAL_UNAVAILABLE = 'Unable to access subscription management portal.';
export const PORTAL_INLINE_ERROR = 'Unable to access customer portal. Please try again.';
export const PORTAL_NOT_SIGNED_IN = 'Unable to access customer portal. User not logged in.';

export const CANCEL_FAILED = 'Failed to cancel subscription';
export const SYNC_FAILED = 'Failed to sync subscription';
export const PLAN_DETAILS_FAILED = 'Unable to load plan details';
export const PROFILE_LOAD_FAILED = 'Error loading profile';
export const PLANS_LOAD_FAILED = 'An error occurred loading plans';
/** SPEC §8 'Error loading subscription data: {error}': the reason travels with the message. */
export function subscriptionDataError(error: string): string {
  return `Error loading subscription data: ${error}`;
}

/** SPEC §9 timers. */
export const BACKGROUND_REFRESH_MS = 10 * 60 * 1000;
export const POST_CHECKOUT_REFRESH_MS = 1000;
export const POST_CHECKOUT_SYNC_MS = 2500;

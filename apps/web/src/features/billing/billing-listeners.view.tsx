import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { TYPES, type SessionService } from '../../app/ports';
import { useVm } from '../../use-vm';
import { AddOnCreditsDialog } from './add-on-credits.dialog';
import { CheckoutReturnFlow, checkoutReturnOf } from './checkout-return.flow';
import { ReferralBonusWatcher } from './referral-bonus.watcher';
import { SubscriptionStore } from './subscription.store';
import { UpgradeDialog } from './upgrade.dialog';

/**
 * App-wide billing: the subscription state follows the session (load on sign-in, refresh every
 * 10 minutes, reset on sign-out), the referral bonus is announced, a return from checkout is handled on any page, and the
 * upgrade and add-on dialogs are mounted once. Rendered by AppShell.
 */
export const BillingListeners = observer(function BillingListeners() {
  const store = useVm(SubscriptionStore);
  const referralBonus = useVm(ReferralBonusWatcher);
  const flow = useVm(CheckoutReturnFlow);
  const session = useVm<SessionService>(TYPES.Session);
  const location = useLocation();

  useEffect(() => store.start(), [store]);
  // The referrer hears of a friend's sign-up ('Referral Bonus!') on any page.
  useEffect(() => referralBonus.start(), [referralBonus]);

  const signedIn = session.status === 'signed-in';
  useEffect(() => {
    // A successful return needs the session to sync (/thank-you's guard signs the visitor in
    // first); a canceled one only says so.
    if (signedIn || checkoutReturnOf(location.search) === 'canceled') void flow.handle(location);
  }, [flow, signedIn, location]);

  return (
    <>
      <UpgradeDialog />
      <AddOnCreditsDialog />
    </>
  );
});

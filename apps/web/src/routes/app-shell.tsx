import { Outlet } from 'react-router-dom';
import { BillingListeners } from '../features/billing/billing-listeners.view';
import { ReferralCaptureListener } from '../features/referral-capture/referral-capture.view';
import { Toaster } from '../features/toasts';

/** The root route's element: app-wide listeners and the toast area, then the matched page. */
export function AppShell() {
  return (
    <>
      <ReferralCaptureListener />
      <Outlet />
      <BillingListeners />
      <Toaster />
    </>
  );
}

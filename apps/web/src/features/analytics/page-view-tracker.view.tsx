import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useVm } from '../../use-vm';
import { PageViews } from './analytics.service';

/** Sends a page view on every navigation. Mount inside the router (every layout does). */
export function PageViewTracker() {
  const pageViews = useVm(PageViews);
  const location = useLocation();
  useEffect(() => {
    // The path only: query strings may carry a referral code or checkout state.
    pageViews.record(location.key, location.pathname);
  }, [pageViews, location.key, location.pathname]);
  return null;
}

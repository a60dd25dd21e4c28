import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useVm } from '../../use-vm';
import { ReferralCapture } from './referral-capture';

/** Captures `?ref=CODE` on in-app navigations too (main.tsx handles the landing URL). */
export function ReferralCaptureListener() {
  const referrals = useVm(ReferralCapture);
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const cleaned = referrals.capture(`${pathname}${search}${hash}`);
    if (cleaned !== null) void navigate(cleaned, { replace: true });
  }, [referrals, navigate, pathname, search, hash]);
  return null;
}

import type { AuthFailure } from '../../app/ports';
import { PASSWORD_MIN_LENGTH } from '@kiln/domain';

/** GoTrue's "…only request this after N seconds." → N, or null. */
export function retryAfterSeconds(failure: AuthFailure): number | null {
  const match = /after (\d+) seconds?/i.exec(failure.message);
  return match ? Number(match[1]) : null;
}

/**
 * An auth failure in words people understand (STYLE.md: the web maps codes to words). The
 * server's text is used only for validation messages, which are already written for people.
 */
export function authErrorMessage(failure: AuthFailure): string {
  switch (failure.code) {
    case 'invalid_credentials':
      return "That email and password don't match an account. Check them and try again.";
    case 'email_not_confirmed':
      return 'Please confirm your email address first: enter the code we sent you.';
    case 'otp_expired':
      return 'That code is wrong or has expired. Check the latest email from us, or send a new code.';
    case 'weak_password':
      return `Choose a stronger password: at least ${PASSWORD_MIN_LENGTH} characters.`;
    case 'same_password':
      return 'Your new password must be different from your current one.';
    case 'over_email_send_rate_limit': {
      const seconds = retryAfterSeconds(failure);
      return seconds === null
        ? 'We just sent you an email. Please wait a minute before asking for another.'
        : `We just sent you an email. You can ask for another in ${seconds} seconds.`;
    }
    case 'over_request_rate_limit':
      return 'Too many attempts. Please wait a few minutes and try again.';
    case 'user_already_exists':
    case 'email_exists':
      return 'An account with this email already exists. Log in instead.';
    case 'email_address_invalid':
      return 'Enter a valid email address.';
    case 'signup_disabled':
      return 'New sign-ups are paused right now. Please try again later.';
    case 'user_banned':
      return 'This account is blocked. Contact support if you think this is a mistake.';
    case 'session_missing':
    case 'session_not_found':
    case 'bad_jwt':
      return 'Your session has ended. Please log in again.';
    case 'mfa_verification_failed':
      return "That code isn't right. Enter the 6-digit code your authenticator app shows now.";
    case 'mfa_challenge_expired':
      return 'That took too long. Enter the code your authenticator app shows now.';
    case 'mfa_factor_not_found':
      return 'No authenticator app is set up for this account any more. Please log in again.';
    case 'insufficient_aal':
      return 'Confirm it is you with your authenticator app first: log out and log in again with your code.';
    case 'network_failure':
      return "We couldn't reach Kiln. Check your connection and try again.";
    case 'validation_failed':
      return failure.message === 'Unable to validate email address: invalid format' ? 'Enter a valid email address.' : failure.message;
    default:
      return 'Something went wrong. Please try again.';
  }
}

/** Errors an auth redirect (/auth/callback) can report, in people's words. */
export function callbackErrorMessage(code: string | null, description: string | null): string {
  switch (code) {
    case 'otp_expired':
      return 'This link has expired or was already used. Ask for a new one.';
    case 'identity_already_exists':
      return 'That sign-in is already linked to another account.';
    case 'identity_not_found':
      return "We couldn't find that sign-in on your account.";
    case 'single_identity_not_deletable':
      return "You can't remove the only way you sign in.";
    case 'access_denied':
      return 'Sign-in was cancelled.';
    default:
      return description && description.trim() !== '' ? description : 'Sign-in could not be completed. Please try again.';
  }
}

import { describe, expect, it } from '@jest/globals';
import { authErrorMessage, retryAfterSeconds } from './auth-messages';

describe('authErrorMessage', () => {
  it.each([
    ['invalid_credentials', 'Invalid login credentials', /don't match an account/],
    ['otp_expired', 'Token has expired or is invalid', /wrong or has expired/],
    ['email_not_confirmed', 'Email not confirmed', /confirm your email/],
    ['over_request_rate_limit', 'Request rate limit reached', /Too many attempts/],
    ['network_failure', 'Failed to fetch', /couldn't reach Kiln/],
    ['validation_failed', 'Unable to validate email address: invalid format', /^Enter a valid email address\.$/],
    ['validation_failed', 'You must provide either an email or phone number and a password', /^You must provide/],
    ['something_new', 'Whatever', /^Something went wrong/],
  ])('%s', (code, message, expected) => {
    expect(authErrorMessage({ code, message })).toMatch(expected);
  });

  it('reads the wait out of a mail rate-limit message', () => {
    const failure = { code: 'over_email_send_rate_limit', message: 'For security purposes, you can only request this after 17 seconds.' };
    expect(retryAfterSeconds(failure)).toBe(17);
    expect(authErrorMessage(failure)).toBe('We just sent you an email. You can ask for another in 17 seconds.');
  });
});

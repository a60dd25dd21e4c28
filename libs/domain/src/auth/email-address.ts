import { type Result, err, ok } from '../shared/result.js';
import { type AuthValidationFailed, authValidationFailed } from './auth.errors.js';

declare const emailBrand: unique symbol;

/** An email address that passed `parseEmail`: trimmed and lower-cased, so equal addresses are equal strings. */
export type EmailAddress = string & { readonly [emailBrand]: true };

/** RFC 5321's limit on a whole address. */
export const EMAIL_MAX_LENGTH = 254;

// The WHATWG "valid email address" grammar (what browsers accept in <input type=email>),
// on the lower-cased text; the domain needs a dot, so 'ana@localhost' is refused.
const EMAIL =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

export const INVALID_EMAIL_MESSAGE = 'Unable to validate email address: invalid format';

/** Reads an untrusted email address. */
export function parseEmail(raw: unknown): Result<EmailAddress, AuthValidationFailed> {
  if (typeof raw !== 'string') return err(authValidationFailed(INVALID_EMAIL_MESSAGE));
  const email = raw.trim().toLowerCase();
  if (email.length === 0 || email.length > EMAIL_MAX_LENGTH || !EMAIL.test(email)) {
    return err(authValidationFailed(INVALID_EMAIL_MESSAGE));
  }
  return ok(email as EmailAddress);
}

import { type Result, err, ok } from '../shared/result.js';
import { PASSWORD_MIN_LENGTH } from './auth.constants.js';
import { type WeakPassword, weakPassword } from './auth.errors.js';

/** GoTrue's reasons (`weak_password.reasons`); Kiln checks `length` and, when configured, `characters`. */
export type WeakPasswordReason = 'length' | 'characters' | 'pwned';

export interface PasswordPolicy {
  /** Minimum length in Unicode code points. */
  readonly minLength: number;
  /** Each string is a set of characters the password must use at least one of (GoTrue's PASSWORD_REQUIRED_CHARACTERS). */
  readonly requiredCharacterSets: readonly string[];
}

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = Object.freeze({
  minLength: PASSWORD_MIN_LENGTH,
  requiredCharacterSets: Object.freeze([]) as readonly string[],
});

/**
 * Checks a new password against the policy. Length counts code points, so an emoji is one
 * character, not two UTF-16 units.
 */
export function checkPassword(password: string, policy: PasswordPolicy = DEFAULT_PASSWORD_POLICY): Result<void, WeakPassword> {
  const reasons: WeakPasswordReason[] = [];
  const messages: string[] = [];
  if ([...password].length < policy.minLength) {
    reasons.push('length');
    messages.push(`Password should be at least ${policy.minLength} characters.`);
  }
  const missing = policy.requiredCharacterSets.filter((set) => ![...set].some((c) => password.includes(c)));
  if (missing.length > 0) {
    reasons.push('characters');
    messages.push(`Password should contain at least one character of each: ${policy.requiredCharacterSets.join(', ')}.`);
  }
  return reasons.length === 0 ? ok(undefined) : err(weakPassword(reasons, messages.join(' ')));
}

import { checkPassword, parseEmail, PASSWORD_MIN_LENGTH } from '@kiln/domain';

export interface PasswordRule {
  readonly label: string;
  readonly met: boolean;
}

/** The inline password rules shown under the field (the domain's policy). */
export function passwordRules(password: string): readonly PasswordRule[] {
  return [{ label: `At least ${PASSWORD_MIN_LENGTH} characters`, met: [...password].length >= PASSWORD_MIN_LENGTH }];
}

export function isValidPassword(password: string): boolean {
  return checkPassword(password).ok;
}

export function isValidEmail(email: string): boolean {
  return parseEmail(email).ok;
}

export const EMAIL_INVALID = 'Enter a valid email address, like name@example.com.';
export const PASSWORD_INVALID = `Your password needs at least ${PASSWORD_MIN_LENGTH} characters.`;

/** `/verify?email=…` for an address. */
export const verifyPath = (email: string, extra: Readonly<Record<string, string>> = {}): string =>
  `/verify?${new URLSearchParams({ email: email.trim(), ...extra }).toString()}`;

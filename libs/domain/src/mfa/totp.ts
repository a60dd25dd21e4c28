import { TOTP_DIGITS, TOTP_PERIOD_SECONDS, TOTP_WINDOW_STEPS } from './mfa.constants.js';

/**
 * Computes RFC 6238 codes (HMAC-SHA1 over the step counter, dynamic truncation). A port, so the
 * domain stays free of crypto: the adapter wraps the otpauth library.
 */
export interface TotpCodeGenerator {
  /** The code of `secret` (base32) for time step `step`. */
  codeAt(secret: string, step: number): string;
}

/** The 30-second step that `now` falls in (RFC 6238's T). */
export const timeStep = (now: Date): number => Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);

export const looksLikeTotpCode = (code: string): boolean => new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code);

export type TotpCheck =
  | { readonly kind: 'accepted'; readonly step: number }
  /** Not the code of any step in the window. */
  | { readonly kind: 'rejected' }
  /** The code of a step already used (or older): a replay. */
  | { readonly kind: 'replayed' };

export interface TotpCheckInput {
  readonly secret: string;
  readonly code: string;
  readonly now: Date;
  /** The newest step a code was accepted for, or null. Codes of this step or older are refused. */
  readonly lastUsedStep: number | null;
}

/** Equal strings in time that does not depend on where they differ. */
function sameCode(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Whether `code` is the code of the current step or one step either side, and not of a step
 * already used: a code that worked once never works again, even within its 30 seconds.
 */
export function checkTotp(generator: TotpCodeGenerator, input: TotpCheckInput): TotpCheck {
  if (!looksLikeTotpCode(input.code)) return { kind: 'rejected' };
  const current = timeStep(input.now);
  let matched: number | null = null;
  for (let step = current - TOTP_WINDOW_STEPS; step <= current + TOTP_WINDOW_STEPS; step += 1) {
    // Every step is computed and compared, so the time taken says nothing about which matched.
    if (sameCode(generator.codeAt(input.secret, step), input.code) && matched === null) matched = step;
  }
  if (matched === null) return { kind: 'rejected' };
  if (input.lastUsedStep !== null && matched <= input.lastUsedStep) return { kind: 'replayed' };
  return { kind: 'accepted', step: matched };
}

import type { Clock } from '../shared/clock.port.js';
import { type Result, err, ok } from '../shared/result.js';
import { CODE_MAX_FAILED_ATTEMPTS } from './auth.constants.js';
import { type AuthValidationFailed, type EmailExists, type OtpExpired, emailExists, otpExpired } from './auth.errors.js';
import { type AuthUserPatch, confirmationPatch, isDeleted } from './auth-user.entity.js';
import type { AuthUserRepository } from './auth-user-repository.port.js';
import { parseEmail } from './email-address.js';
import { type CodePurpose, PURPOSES_FOR, type VerificationType, codeDigest, looksLikeCode } from './one-time-code.js';
import type { OneTimeCodeStore } from './one-time-code-store.port.js';
import type { SecretHasher } from './secret-hasher.port.js';
import type { IssuedSession, SessionIssuer, SignInMethod } from './session-issuer.js';

export interface VerifyOtpInput {
  readonly type: VerificationType;
  readonly email: string;
  readonly token: string;
}

export type VerifyOtpError = AuthValidationFailed | OtpExpired | EmailExists;

const METHOD: Readonly<Record<CodePurpose, SignInMethod>> = {
  signup: 'email/signup',
  magiclink: 'magiclink',
  recovery: 'recovery',
  email_change: 'email_change',
};

/**
 * POST /verify: a mailed code, once, within its lifetime and its five tries, signs the person
 * in. Any accepted code proves the mailbox, so it also confirms the address; an email-change
 * code moves the account to its new address.
 */
export class VerifyOtp {
  constructor(
    private readonly users: AuthUserRepository,
    private readonly codes: OneTimeCodeStore,
    private readonly hasher: SecretHasher,
    private readonly sessions: SessionIssuer,
    private readonly clock: Clock,
  ) {}

  async execute(input: VerifyOtpInput): Promise<Result<IssuedSession, VerifyOtpError>> {
    const email = parseEmail(input.email);
    if (!email.ok) return email;
    if (!looksLikeCode(input.token)) return err(otpExpired());
    const now = this.clock.now();
    const outcome = await this.codes.consume({
      email: email.value,
      candidates: PURPOSES_FOR[input.type].map((purpose) => ({ purpose, codeHash: codeDigest(this.hasher, email.value, purpose, input.token) })),
      now,
      maxFailedAttempts: CODE_MAX_FAILED_ATTEMPTS,
    });
    if (outcome.kind === 'rejected' || outcome.code.userId === null) return err(otpExpired());
    const { code } = outcome;

    const user = await this.users.findById(outcome.code.userId);
    if (!user || isDeleted(user)) return err(otpExpired());

    let patch: AuthUserPatch;
    if (code.purpose === 'email_change') {
      if (user.emailChange !== code.email) return err(otpExpired()); // superseded by a later change
      patch = { ...confirmationPatch(user, now), email: code.email, emailChange: null, emailChangeSentAt: null };
    } else {
      patch = confirmationPatch(user, now);
    }
    const updated = await this.users.update(user.id, { ...patch, lastSignInAt: now, updatedAt: now });
    if (updated.outcome === 'email_taken') return err(emailExists());
    if (updated.outcome === 'not_found') return err(otpExpired());
    return ok(await this.sessions.start(updated.user, METHOD[code.purpose]));
  }
}

import { type Result, ok } from '../shared/result.js';
import type { AuthValidationFailed, MailRateLimited } from './auth.errors.js';
import { isConfirmed } from './auth-user.entity.js';
import type { AuthUserRepository } from './auth-user-repository.port.js';
import type { CodeSender } from './code-sender.js';
import { parseEmail } from './email-address.js';

export type ResendType = 'signup' | 'email_change';
export const RESEND_TYPES: readonly ResendType[] = ['signup', 'email_change'];

export interface ResendCodeInput {
  readonly type: ResendType;
  /** The account's current address (for email_change too, like GoTrue). */
  readonly email: string;
}

export type ResendCodeError = AuthValidationFailed | MailRateLimited;

/**
 * POST /resend: a new confirmation code for an unconfirmed account, or a new email-change code
 * for a pending change. Anything else (unknown address, already confirmed, no change pending)
 * mails nothing but answers the same, cooldown included.
 */
export class ResendCode {
  constructor(
    private readonly users: AuthUserRepository,
    private readonly codeSender: CodeSender,
  ) {}

  async execute(input: ResendCodeInput): Promise<Result<void, ResendCodeError>> {
    const email = parseEmail(input.email);
    if (!email.ok) return email;
    const user = await this.users.findByEmail(email.value);

    if (input.type === 'signup') {
      const real = user !== null && !isConfirmed(user);
      const sent = await this.codeSender.send({ email: email.value, purpose: 'signup', userId: real ? user.id : null });
      if (!sent.ok) return sent;
      if (real) await this.users.update(user.id, { confirmationSentAt: sent.value.issuedAt, updatedAt: sent.value.issuedAt });
      return ok(undefined);
    }

    const pending = user?.emailChange ?? null;
    if (user === null || pending === null) {
      const sent = await this.codeSender.send({ email: email.value, purpose: 'email_change', userId: null });
      return sent.ok ? ok(undefined) : sent;
    }
    const sent = await this.codeSender.send({ email: pending, purpose: 'email_change', userId: user.id });
    if (!sent.ok) return sent;
    await this.users.update(user.id, { emailChangeSentAt: sent.value.issuedAt, updatedAt: sent.value.issuedAt });
    return ok(undefined);
  }
}

import type { Clock } from '../shared/clock.port.js';
import type { IdGenerator } from '../shared/ids.port.js';
import { type Result, ok } from '../shared/result.js';
import type { AuthValidationFailed, MailRateLimited } from './auth.errors.js';
import { createAuthUser, isConfirmed, parseMetadata } from './auth-user.entity.js';
import type { AuthUserRepository } from './auth-user-repository.port.js';
import type { CodeSender } from './code-sender.js';
import { parseEmail } from './email-address.js';

export interface RequestOtpInput {
  readonly email: string;
  /** auth-js `shouldCreateUser` (default true): make an account for an unknown address. */
  readonly createUser: boolean;
  readonly data?: unknown;
}

export type RequestOtpError = AuthValidationFailed | MailRateLimited;

/**
 * POST /otp: mails a sign-in code. A confirmed account gets a sign-in code, an unconfirmed one
 * its confirmation code. An unknown address gets a new password-less account when `createUser`
 * is set; otherwise it gets nothing — and answers 200 all the same (GoTrue answers 422
 * otp_disabled there, which tells whether the address is registered).
 */
export class RequestOtp {
  constructor(
    private readonly users: AuthUserRepository,
    private readonly codeSender: CodeSender,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: RequestOtpInput): Promise<Result<void, RequestOtpError>> {
    const email = parseEmail(input.email);
    if (!email.ok) return email;
    const metadata = parseMetadata(input.data);
    if (!metadata.ok) return metadata;

    for (let attempt = 0; attempt < 2; attempt += 1) {
      const existing = await this.users.findByEmail(email.value);
      if (existing) {
        const confirmed = isConfirmed(existing);
        const sent = await this.codeSender.send({ email: email.value, purpose: confirmed ? 'magiclink' : 'signup', userId: existing.id });
        if (!sent.ok) return sent;
        if (!confirmed) await this.users.update(existing.id, { confirmationSentAt: sent.value.issuedAt, updatedAt: sent.value.issuedAt });
        return ok(undefined);
      }
      if (!input.createUser) {
        const sent = await this.codeSender.send({ email: email.value, purpose: 'magiclink', userId: null });
        return sent.ok ? ok(undefined) : sent;
      }
      const user = createAuthUser(
        { id: this.ids.next(), identityId: this.ids.next(), email: email.value, passwordHash: null, metadata: metadata.value },
        this.clock.now(),
      );
      if ((await this.users.insert(user)) === 'email_taken') continue;
      const sent = await this.codeSender.send({ email: email.value, purpose: 'signup', userId: user.id });
      if (!sent.ok) return sent;
      await this.users.update(user.id, { confirmationSentAt: sent.value.issuedAt, updatedAt: sent.value.issuedAt });
      return ok(undefined);
    }
    throw new Error('One-time-code sign-in kept losing the race for an address');
  }
}

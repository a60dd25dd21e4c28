import { type Result, ok } from '../shared/result.js';
import type { AuthValidationFailed, MailRateLimited } from './auth.errors.js';
import type { AuthUserRepository } from './auth-user-repository.port.js';
import type { CodeSender } from './code-sender.js';
import { parseEmail } from './email-address.js';

export type RecoverError = AuthValidationFailed | MailRateLimited;

/**
 * POST /recover: mails a password-reset code (verified with type `recovery`, which signs the
 * person in so they can set a new password with PUT /user). An unknown address answers the
 * same 200 — and the same 429 within the cooldown — so nothing is revealed.
 */
export class Recover {
  constructor(
    private readonly users: AuthUserRepository,
    private readonly codeSender: CodeSender,
  ) {}

  async execute(input: { readonly email: string }): Promise<Result<void, RecoverError>> {
    const email = parseEmail(input.email);
    if (!email.ok) return email;
    const user = await this.users.findByEmail(email.value);
    const sent = await this.codeSender.send({ email: email.value, purpose: 'recovery', userId: user?.id ?? null });
    if (!sent.ok) return sent;
    if (user) await this.users.update(user.id, { recoverySentAt: sent.value.issuedAt, updatedAt: sent.value.issuedAt });
    return ok(undefined);
  }
}

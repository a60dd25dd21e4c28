import type { Mailer } from '../mail/mailer.port.js';
import type { Clock } from '../shared/clock.port.js';
import { type Result, err, ok } from '../shared/result.js';
import {
  type AuthUserNotFound,
  type AuthValidationFailed,
  type EmailExists,
  type MailRateLimited,
  type SamePassword,
  type WeakPassword,
  authUserNotFound,
  emailExists,
  samePassword,
} from './auth.errors.js';
import { emailChangeNotice } from './auth-mail.js';
import { type AuthUser, type AuthUserPatch, isDeleted, mergeMetadata, parseMetadata } from './auth-user.entity.js';
import type { AuthUserRepository } from './auth-user-repository.port.js';
import type { CodeSender } from './code-sender.js';
import { type EmailAddress, parseEmail } from './email-address.js';
import type { PasswordHasher } from './password-hasher.port.js';
import { type PasswordPolicy, checkPassword } from './password-policy.js';
import type { SessionStore } from './session-store.port.js';

export interface UpdateUserInput {
  readonly userId: string;
  /** The session making the change: kept when a password change ends the others. */
  readonly sessionId: string | null;
  readonly email?: string;
  readonly password?: string;
  /** Merged into user_metadata; a null value removes its key. */
  readonly data?: unknown;
}

export type UpdateUserError = AuthUserNotFound | AuthValidationFailed | WeakPassword | SamePassword | EmailExists | MailRateLimited;

/**
 * PUT /user. Everything is checked before anything is written. A new password ends every
 * other session (the person may be locking someone out). A new address is not taken at once:
 * a code goes to it (verify type email_change) and a notice to the current address.
 */
export class UpdateUser {
  constructor(
    private readonly users: AuthUserRepository,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionStore,
    private readonly codeSender: CodeSender,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly policy: PasswordPolicy,
    private readonly productName: string,
  ) {}

  async execute(input: UpdateUserInput): Promise<Result<AuthUser, UpdateUserError>> {
    const user = await this.users.findById(input.userId);
    if (!user || isDeleted(user)) return err(authUserNotFound());
    const patch: { -readonly [K in keyof AuthUserPatch]: AuthUserPatch[K] } = {};

    if (input.data !== undefined) {
      const data = parseMetadata(input.data);
      if (!data.ok) return data;
      patch.userMetadata = mergeMetadata(user.userMetadata, data.value);
    }

    if (input.password !== undefined) {
      const strength = checkPassword(input.password, this.policy);
      if (!strength.ok) return strength;
      if (user.passwordHash !== null && (await this.passwords.verify(user.passwordHash, input.password))) return err(samePassword());
      patch.passwordHash = await this.passwords.hash(input.password);
    }

    let newEmail: EmailAddress | null = null;
    if (input.email !== undefined) {
      const email = parseEmail(input.email);
      if (!email.ok) return email;
      if (email.value !== user.email) {
        const holder = await this.users.findByEmail(email.value);
        if (holder && holder.id !== user.id) return err(emailExists());
        newEmail = email.value;
      }
    }

    const now = this.clock.now();
    if (newEmail !== null) {
      const sent = await this.codeSender.send({ email: newEmail, purpose: 'email_change', userId: user.id });
      if (!sent.ok) return sent;
      patch.emailChange = newEmail;
      patch.emailChangeSentAt = sent.value.issuedAt;
    }

    if (Object.keys(patch).length === 0) return ok(user);
    const updated = await this.users.update(user.id, { ...patch, updatedAt: now });
    if (updated.outcome === 'not_found') return err(authUserNotFound());
    if (updated.outcome === 'email_taken') return err(emailExists());

    if (patch.passwordHash !== undefined) {
      await this.sessions.endAllForUser(user.id, now, 'password_changed', { exceptSessionId: input.sessionId });
    }
    if (newEmail !== null) {
      await this.mailer.send(emailChangeNotice({ to: user.email, newEmail, productName: this.productName }));
    }
    return ok(updated.user);
  }
}

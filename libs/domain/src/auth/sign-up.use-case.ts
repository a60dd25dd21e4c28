import type { Clock } from '../shared/clock.port.js';
import type { IdGenerator } from '../shared/ids.port.js';
import { type Result, ok } from '../shared/result.js';
import type { AuthValidationFailed, MailRateLimited, WeakPassword } from './auth.errors.js';
import { type AuthUser, type JsonObject, createAuthUser, isConfirmed, obfuscatedUser, parseMetadata } from './auth-user.entity.js';
import type { AuthUserRepository } from './auth-user-repository.port.js';
import type { CodeSender } from './code-sender.js';
import { type EmailAddress, parseEmail } from './email-address.js';
import { type PasswordPolicy, checkPassword } from './password-policy.js';
import type { PasswordHasher } from './password-hasher.port.js';

export interface SignUpInput {
  readonly email: string;
  readonly password: string;
  /** user_metadata to start with (auth-js `options.data`). */
  readonly data?: unknown;
}

export interface SignedUp {
  readonly user: AuthUser;
  /** True when the address already had a confirmed account: `user` is a stand-in with no identities. */
  readonly obfuscated: boolean;
}

export type SignUpError = AuthValidationFailed | WeakPassword | MailRateLimited;

/**
 * POST /signup. A new address gets an unconfirmed account and a confirmation code by mail (no
 * session until the code is verified). An address with an unconfirmed account gets a new code
 * and the new password (the latest sign-up wins; only the mailbox owner can confirm). An
 * address with a confirmed account gets an obfuscated user and no mail — the same work and the
 * same cooldown, so the answer reveals nothing.
 */
export class SignUp {
  constructor(
    private readonly users: AuthUserRepository,
    private readonly passwords: PasswordHasher,
    private readonly codeSender: CodeSender,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly policy: PasswordPolicy,
  ) {}

  async execute(input: SignUpInput): Promise<Result<SignedUp, SignUpError>> {
    const email = parseEmail(input.email);
    if (!email.ok) return email;
    const strength = checkPassword(input.password, this.policy);
    if (!strength.ok) return strength;
    const metadata = parseMetadata(input.data);
    if (!metadata.ok) return metadata;

    // Twice at most: a concurrent sign-up may take the address between our read and our insert.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const existing = await this.users.findByEmail(email.value);
      if (existing) return this.signUpAgain(existing, email.value, input.password, metadata.value);
      const created = await this.createAccount(email.value, input.password, metadata.value);
      if (created !== null) return created;
    }
    throw new Error(`Sign-up for an address kept losing the race for it`);
  }

  private async createAccount(email: EmailAddress, password: string, metadata: JsonObject): Promise<Result<SignedUp, SignUpError> | null> {
    const passwordHash = await this.passwords.hash(password);
    const user = createAuthUser({ id: this.ids.next(), identityId: this.ids.next(), email, passwordHash, metadata }, this.clock.now());
    if ((await this.users.insert(user)) === 'email_taken') return null;
    const sent = await this.codeSender.send({ email, purpose: 'signup', userId: user.id });
    if (!sent.ok) return sent;
    return ok({ user: await this.markSent(user, sent.value.issuedAt, {}), obfuscated: false });
  }

  private async signUpAgain(existing: AuthUser, email: EmailAddress, password: string, metadata: JsonObject): Promise<Result<SignedUp, SignUpError>> {
    if (isConfirmed(existing)) {
      await this.passwords.hash(password); // the work a real sign-up does, so timing tells nothing either
      const sent = await this.codeSender.send({ email, purpose: 'signup', userId: null });
      if (!sent.ok) return sent;
      return ok({ user: obfuscatedUser({ id: this.ids.next(), email, metadata }, this.clock.now()), obfuscated: true });
    }
    const passwordHash = await this.passwords.hash(password);
    const sent = await this.codeSender.send({ email, purpose: 'signup', userId: existing.id });
    if (!sent.ok) return sent;
    return ok({ user: await this.markSent(existing, sent.value.issuedAt, { passwordHash }), obfuscated: false });
  }

  private async markSent(user: AuthUser, at: Date, extra: { passwordHash?: string }): Promise<AuthUser> {
    const updated = await this.users.update(user.id, { ...extra, confirmationSentAt: at, updatedAt: at });
    if (updated.outcome !== 'updated') throw new Error(`Account ${user.id} vanished during sign-up (${updated.outcome})`);
    return updated.user;
  }
}

import type { Clock } from '../shared/clock.port.js';
import { type Result, err, ok } from '../shared/result.js';
import { type EmailNotConfirmed, type InvalidCredentials, emailNotConfirmed, invalidCredentials } from './auth.errors.js';
import { isConfirmed, isDeleted } from './auth-user.entity.js';
import type { AuthUserRepository } from './auth-user-repository.port.js';
import { parseEmail } from './email-address.js';
import type { PasswordHasher } from './password-hasher.port.js';
import { type PasswordPolicy, checkPassword } from './password-policy.js';
import type { IssuedSession, SessionIssuer } from './session-issuer.js';

export interface SignInWithPasswordInput {
  readonly email: string;
  readonly password: string;
}

export type SignInError = InvalidCredentials | EmailNotConfirmed;

/** Hashed once per process and checked against when there is no account, so both paths cost one verify. */
const DUMMY_PASSWORD = 'kiln-timing-equaliser-not-a-password';

/**
 * POST /token?grant_type=password. Unknown address, deleted account, account without a
 * password and wrong password all answer the same invalid_credentials after the same work
 * (one hash verification). email_not_confirmed comes only after the password was right.
 */
export class SignInWithPassword {
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly users: AuthUserRepository,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionIssuer,
    private readonly clock: Clock,
    private readonly policy: PasswordPolicy,
  ) {}

  async execute(input: SignInWithPasswordInput): Promise<Result<IssuedSession, SignInError>> {
    const email = parseEmail(input.email);
    const user = email.ok ? await this.users.findByEmail(email.value) : null;
    if (user === null || isDeleted(user) || user.passwordHash === null) {
      await this.passwords.verify(await this.dummy(), input.password);
      return err(invalidCredentials());
    }
    if (!(await this.passwords.verify(user.passwordHash, input.password))) return err(invalidCredentials());
    if (!isConfirmed(user)) return err(emailNotConfirmed());

    const now = this.clock.now();
    const updated = await this.users.update(user.id, { lastSignInAt: now, updatedAt: now });
    if (updated.outcome !== 'updated') return err(invalidCredentials());
    const session = await this.sessions.start(updated.user, 'password');
    // GoTrue's hint when a password set under an older, weaker policy no longer passes.
    const strength = checkPassword(input.password, this.policy);
    return ok(strength.ok ? session : { ...session, weakPassword: { reasons: strength.error.reasons, message: strength.error.message } });
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= this.passwords.hash(DUMMY_PASSWORD);
    return this.dummyHash;
  }
}

import type { Mailer } from '../mail/mailer.port.js';
import type { Clock } from '../shared/clock.port.js';
import type { IdGenerator } from '../shared/ids.port.js';
import type { RandomSource } from '../shared/random.port.js';
import type { AccessTokenSigner } from './access-token-signer.port.js';
import { type AuthSettings, authSettings } from './auth-settings.js';
import type { AuthUserRepository } from './auth-user-repository.port.js';
import { BuiltInAccessTokenVerifier } from './built-in-access-token-verifier.js';
import { CodeSender } from './code-sender.js';
import { GetUser } from './get-user.use-case.js';
import { Logout } from './logout.use-case.js';
import type { OneTimeCodeStore } from './one-time-code-store.port.js';
import type { PasswordHasher } from './password-hasher.port.js';
import type { RateLimiter } from './rate-limiter.port.js';
import { Recover } from './recover.use-case.js';
import { RefreshSession } from './refresh-session.use-case.js';
import { RequestOtp } from './request-otp.use-case.js';
import { ResendCode } from './resend-code.use-case.js';
import type { SecretHasher } from './secret-hasher.port.js';
import { SessionIssuer } from './session-issuer.js';
import type { SessionStore } from './session-store.port.js';
import { SignInWithPassword } from './sign-in-with-password.use-case.js';
import { SignUp } from './sign-up.use-case.js';
import { SoftDeleteAccount } from './soft-delete-account.use-case.js';
import { ThrottleAuthRequest } from './throttle-auth-request.use-case.js';
import { UpdateUser } from './update-user.use-case.js';
import { VerifyOtp } from './verify-otp.use-case.js';

/** Every port the built-in auth needs. */
export interface AuthPorts {
  readonly users: AuthUserRepository;
  readonly codes: OneTimeCodeStore;
  readonly sessions: SessionStore;
  readonly passwords: PasswordHasher;
  readonly hasher: SecretHasher;
  readonly signer: AccessTokenSigner;
  readonly rateLimiter: RateLimiter;
  readonly mailer: Mailer;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly ids: IdGenerator;
}

/** The built-in auth's use cases, wired once (by the API's AuthModule and by tests). */
export function createAuthUseCases(ports: AuthPorts, settings: AuthSettings = authSettings()) {
  const { users, codes, sessions, passwords, hasher, signer, rateLimiter, mailer, clock, random, ids } = ports;
  const codeSender = new CodeSender({ codes, mailer, hasher, random, ids, clock, productName: settings.productName });
  const issuer = new SessionIssuer({ sessions, signer, hasher, random, ids, clock, issuer: settings.issuer });
  return {
    settings,
    signUp: new SignUp(users, passwords, codeSender, ids, clock, settings.passwordPolicy),
    verifyOtp: new VerifyOtp(users, codes, hasher, issuer, clock),
    requestOtp: new RequestOtp(users, codeSender, ids, clock),
    resendCode: new ResendCode(users, codeSender),
    recover: new Recover(users, codeSender),
    signInWithPassword: new SignInWithPassword(users, passwords, issuer, clock, settings.passwordPolicy),
    refreshSession: new RefreshSession(sessions, users, hasher, issuer, clock),
    logout: new Logout(sessions, clock),
    getUser: new GetUser(users),
    updateUser: new UpdateUser(users, passwords, sessions, codeSender, mailer, clock, settings.passwordPolicy, settings.productName),
    softDeleteAccount: new SoftDeleteAccount(users, sessions, clock),
    verifier: new BuiltInAccessTokenVerifier(signer, sessions),
    throttle: new ThrottleAuthRequest(rateLimiter, settings.rateRules),
    publicKeys: () => signer.publicKeys(),
  };
}

export type AuthUseCases = ReturnType<typeof createAuthUseCases>;

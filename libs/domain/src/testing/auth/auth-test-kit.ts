import { type AuthSettings, authSettings } from '../../auth/auth-settings.js';
import { createAuthUseCases } from '../../auth/auth-use-cases.js';
import type { IssuedSession } from '../../auth/session-issuer.js';
import type { RandomSource } from '../../shared/random.port.js';
import { FixedClock } from '../fixed-clock.js';
import type { Pause } from '../in-memory-credit-ledger.js';
import { SeededRandom } from '../scripted-random.js';
import { SequentialIds } from '../sequential-ids.js';
import { FakeAccessTokenSigner } from './fake-access-token-signer.js';
import { FakePasswordHasher } from './fake-password-hasher.js';
import { InMemoryAuthUserRepository } from './in-memory-auth-user-repository.js';
import { InMemoryOneTimeCodeStore } from './in-memory-one-time-code-store.js';
import { InMemoryRateLimiter } from './in-memory-rate-limiter.js';
import { InMemorySessionStore } from './in-memory-session-store.js';
import { PureSha256SecretHasher } from './pure-sha256.js';
import { RecordingMailer } from './recording-mailer.js';

export interface AuthTestKitOptions {
  readonly pause?: Pause;
  readonly clock?: FixedClock;
  readonly random?: RandomSource;
  readonly settings?: Partial<AuthSettings>;
}

/** The built-in auth over in-memory adapters: the composition root of auth tests. */
export function createAuthTestKit(options: AuthTestKitOptions = {}) {
  const clock = options.clock ?? new FixedClock();
  const ports = {
    users: new InMemoryAuthUserRepository(options.pause),
    codes: new InMemoryOneTimeCodeStore(options.pause),
    sessions: new InMemorySessionStore(options.pause),
    passwords: new FakePasswordHasher(),
    hasher: new PureSha256SecretHasher(),
    signer: new FakeAccessTokenSigner(clock),
    rateLimiter: new InMemoryRateLimiter(clock),
    mailer: new RecordingMailer(),
    clock,
    random: options.random ?? new SeededRandom(7),
    ids: new SequentialIds('auth'),
  };
  return { ...ports, ports, auth: createAuthUseCases(ports, authSettings(options.settings)) };
}

export type AuthTestKit = ReturnType<typeof createAuthTestKit>;

/** Signs `email` up and confirms it with the mailed code; answers the session of the confirmation. */
export async function signUpConfirmed(kit: AuthTestKit, email: string, password = 'correct horse battery'): Promise<IssuedSession> {
  const signedUp = await kit.auth.signUp.execute({ email, password });
  if (!signedUp.ok) throw new Error(`sign-up failed: ${signedUp.error.message}`);
  const token = kit.mailer.lastCode(email);
  if (token === null) throw new Error(`no code was mailed to ${email}`);
  const verified = await kit.auth.verifyOtp.execute({ type: 'signup', email, token });
  if (!verified.ok) throw new Error(`verification failed: ${verified.error.message}`);
  return verified.value;
}

/** Signs in with a password, failing the test on error. */
export async function signIn(kit: AuthTestKit, email: string, password = 'correct horse battery'): Promise<IssuedSession> {
  const result = await kit.auth.signInWithPassword.execute({ email, password });
  if (!result.ok) throw new Error(`sign-in failed: ${result.error.message}`);
  return result.value;
}

import type { Clock } from '../shared/clock.port.js';
import type { IdGenerator } from '../shared/ids.port.js';
import type { RandomSource } from '../shared/random.port.js';
import type { AccessTokenClaims, AccessTokenSigner } from './access-token-signer.port.js';
import { ACCESS_TOKEN_TTL_SECONDS, AUTH_AUDIENCE, AUTH_ROLE, REFRESH_TOKEN_BYTES } from './auth.constants.js';
import type { AuthMethodReference, AuthSession } from './auth-session.js';
import type { AuthUser } from './auth-user.entity.js';
import type { WeakPasswordReason } from './password-policy.js';
import { randomHex } from './random-token.js';
import type { SecretHasher } from './secret-hasher.port.js';
import type { SessionStore } from './session-store.port.js';

/** A signed-in session as handed to the client (GoTrue's AccessTokenResponse). */
export interface IssuedSession {
  readonly accessToken: string;
  readonly tokenType: 'bearer';
  /** Seconds. */
  readonly expiresIn: number;
  /** Unix seconds. */
  readonly expiresAt: number;
  readonly refreshToken: string;
  readonly user: AuthUser;
  readonly sessionId: string;
  /** Set by password sign-in when the password no longer meets the policy. */
  readonly weakPassword: { readonly reasons: readonly WeakPasswordReason[]; readonly message: string } | null;
}

/** How a session started, as GoTrue writes it in `amr`. */
export type SignInMethod = 'password' | 'otp' | 'magiclink' | 'email/signup' | 'recovery' | 'email_change' | 'totp';

/** A session started after a second factor: aal2, with the first factor's `amr` entries kept. */
export interface SecondFactorStart {
  readonly aal: 'aal2';
  readonly earlierMethods: readonly AuthMethodReference[];
}

export interface SessionIssuerDeps {
  readonly sessions: SessionStore;
  readonly signer: AccessTokenSigner;
  readonly hasher: SecretHasher;
  readonly random: RandomSource;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly issuer: string;
}

const unixSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);

/** Starts sessions and mints access tokens for them. */
export class SessionIssuer {
  constructor(private readonly deps: SessionIssuerDeps) {}

  /**
   * A new session for `user` with a random first refresh token: aal1, or aal2 when it follows
   * a second factor (`amr` then lists the newest method first, as GoTrue does).
   */
  async start(user: AuthUser, method: SignInMethod, secondFactor: SecondFactorStart | null = null): Promise<IssuedSession> {
    const { sessions, hasher, random, ids, clock } = this.deps;
    const now = clock.now();
    const amr: AuthMethodReference[] = [{ method, timestamp: unixSeconds(now) }, ...(secondFactor?.earlierMethods ?? [])];
    const session: AuthSession = Object.freeze({
      id: ids.next(),
      userId: user.id,
      createdAt: now,
      refreshedAt: null,
      endedAt: null,
      endReason: null,
      aal: secondFactor?.aal ?? 'aal1',
      amr: Object.freeze(amr),
      tokenSecret: randomHex(random, REFRESH_TOKEN_BYTES),
    });
    const refreshToken = randomHex(random, REFRESH_TOKEN_BYTES);
    await sessions.create(session, {
      tokenHash: hasher.digest(refreshToken),
      sessionId: session.id,
      generation: 0,
      createdAt: now,
      revokedAt: null,
    });
    return this.respond(user, session, refreshToken);
  }

  /** A fresh access token for an existing session, answered with `refreshToken`. */
  async respond(user: AuthUser, session: AuthSession, refreshToken: string): Promise<IssuedSession> {
    const now = this.deps.clock.now();
    const iat = unixSeconds(now);
    const exp = iat + ACCESS_TOKEN_TTL_SECONDS;
    const claims: AccessTokenClaims = {
      iss: this.deps.issuer,
      sub: user.id,
      aud: AUTH_AUDIENCE,
      exp,
      iat,
      email: user.email,
      phone: user.phone ?? '',
      app_metadata: user.appMetadata,
      user_metadata: user.userMetadata,
      role: AUTH_ROLE,
      aal: session.aal,
      amr: session.amr,
      session_id: session.id,
      is_anonymous: false,
    };
    return Object.freeze({
      accessToken: await this.deps.signer.sign(claims),
      tokenType: 'bearer',
      expiresIn: ACCESS_TOKEN_TTL_SECONDS,
      expiresAt: exp,
      refreshToken,
      user,
      sessionId: session.id,
      weakPassword: null,
    });
  }
}

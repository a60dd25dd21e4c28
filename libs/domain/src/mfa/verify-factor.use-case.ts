import type { AuthUserRepository } from '../auth/auth-user-repository.port.js';
import { isDeleted } from '../auth/auth-user.entity.js';
import { isEnded } from '../auth/auth-session.js';
import { type AuthUserNotFound, type SessionEnded, authUserNotFound, sessionEnded } from '../auth/auth.errors.js';
import type { IssuedSession, SessionIssuer } from '../auth/session-issuer.js';
import type { SessionStore } from '../auth/session-store.port.js';
import type { Clock } from '../shared/clock.port.js';
import { type Result, err, ok } from '../shared/result.js';
import { isChallengeExpired } from './factor.entity.js';
import type { FactorStore } from './factor-store.port.js';
import {
  type ChallengeExpired,
  type ChallengeNotFound,
  type FactorNotFound,
  type MfaVerificationFailed,
  challengeExpired,
  challengeNotFound,
  factorNotFound,
  mfaVerificationFailed,
} from './mfa.errors.js';
import { type TotpCodeGenerator, checkTotp } from './totp.js';

export interface VerifyFactorInput {
  readonly userId: string;
  /** The session asking; it is replaced by an aal2 one. */
  readonly sessionId: string;
  readonly factorId: string;
  readonly challengeId: string;
  readonly code: string;
}

export type VerifyFactorError = FactorNotFound | ChallengeNotFound | ChallengeExpired | MfaVerificationFailed | AuthUserNotFound | SessionEnded;

/**
 * POST /factors/{id}/verify: the code of the factor's authenticator, against a live challenge
 * of that factor, answered once. A code is good for the current 30-second step or one step
 * either side, and never twice (the factor remembers the newest step used). Success verifies
 * the factor (first time) and swaps the asking aal1 session for an aal2 one, whose `amr` keeps
 * how the person first signed in.
 */
export class VerifyFactor {
  constructor(
    private readonly factors: FactorStore,
    private readonly users: AuthUserRepository,
    private readonly sessions: SessionStore,
    private readonly issuer: SessionIssuer,
    private readonly totp: TotpCodeGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: VerifyFactorInput): Promise<Result<IssuedSession, VerifyFactorError>> {
    const factor = await this.factors.findById(input.factorId);
    if (!factor || factor.userId !== input.userId) return err(factorNotFound());
    const challenge = await this.factors.findChallenge(input.challengeId);
    if (!challenge || challenge.factorId !== factor.id) return err(challengeNotFound());
    const now = this.clock.now();
    if (isChallengeExpired(challenge, now)) return err(challengeExpired(challenge.id));
    if (challenge.verifiedAt !== null) return err(mfaVerificationFailed());

    const check = checkTotp(this.totp, { secret: factor.secret, code: input.code, now, lastUsedStep: factor.lastUsedStep });
    if (check.kind !== 'accepted') return err(mfaVerificationFailed());
    const recorded = await this.factors.recordVerification({ factorId: factor.id, challengeId: challenge.id, step: check.step, at: now });
    if (recorded !== 'recorded') return err(mfaVerificationFailed());

    const user = await this.users.findById(input.userId);
    if (!user || isDeleted(user)) return err(authUserNotFound());
    const current = await this.sessions.findById(input.sessionId);
    if (!current || isEnded(current) || current.userId !== user.id) return err(sessionEnded());
    await this.factors.deleteUnverified(user.id);
    await this.sessions.end(current.id, now, 'mfa_upgraded');
    return ok(await this.issuer.start(user, 'totp', { aal: 'aal2', earlierMethods: current.amr.filter((entry) => entry.method !== 'totp') }));
  }
}

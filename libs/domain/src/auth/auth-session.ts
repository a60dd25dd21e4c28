import { REFRESH_REUSE_INTERVAL_MS } from './auth.constants.js';
import type { SecretHasher } from './secret-hasher.port.js';

/** How a session was started (GoTrue's `amr` entries: password, otp, recovery, …). */
export interface AuthMethodReference {
  readonly method: string;
  /** Unix seconds. */
  readonly timestamp: number;
}

/** GoTrue's authenticator assurance levels: aal1 = one factor (password, code), aal2 = a second factor too. */
export type AuthAssuranceLevel = 'aal1' | 'aal2';

export type SessionEndReason = 'logout' | 'refresh_token_reused' | 'password_changed' | 'account_deleted' | 'mfa_upgraded';

/**
 * A signed-in device. Access tokens carry its id (`session_id`); once it has ended they are
 * refused even before they expire, and its refresh tokens stop working.
 */
export interface AuthSession {
  readonly id: string;
  readonly userId: string;
  readonly createdAt: Date;
  readonly refreshedAt: Date | null;
  readonly endedAt: Date | null;
  readonly endReason: SessionEndReason | null;
  /** aal2 once a second factor was proved in this session (GoTrue's authenticator assurance level). */
  readonly aal: AuthAssuranceLevel;
  readonly amr: readonly AuthMethodReference[];
  /**
   * Secret from which each refresh token's successor is derived (see `successorToken`). Never
   * leaves the server; with it, a stored digest is still useless without a token in hand.
   */
  readonly tokenSecret: string;
}

/**
 * One refresh token of a session, stored as its digest. A session's tokens form one chain:
 * generation 0 is random, generation n+1 is derived from generation n. Exactly one is not
 * revoked while the session lives: the active one.
 */
export interface RefreshTokenRecord {
  readonly tokenHash: string;
  readonly sessionId: string;
  readonly generation: number;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

export const isEnded = (session: Pick<AuthSession, 'endedAt'>): boolean => session.endedAt !== null;

/** Refresh tokens are 64 lower-case hex characters; anything else is not looked up at all. */
export const REFRESH_TOKEN_PATTERN = /^[0-9a-f]{64}$/;

/**
 * The token that follows `token` in its session's chain. Deterministic, so presenting an
 * older token again can be answered with the very token that followed it (GOTRUE.md: "the
 * immediate parent of the active token returns the active one") although only digests are
 * stored; keyed by the session's secret, so holding an old token is not enough to compute the
 * newer ones.
 */
export function successorToken(hasher: SecretHasher, tokenSecret: string, token: string): string {
  return hasher.digest(`kiln-refresh-v1:${tokenSecret}:${token}`);
}

/** The token `steps` generations after `token`. */
export function descendantToken(hasher: SecretHasher, tokenSecret: string, token: string, steps: number): string {
  let current = token;
  for (let i = 0; i < steps; i += 1) current = successorToken(hasher, tokenSecret, current);
  return current;
}

/** What a refresh sees, read under the session's lock. */
export interface RotationView {
  readonly session: AuthSession;
  readonly presented: RefreshTokenRecord;
  /** The session's active token (null only if the session has ended). */
  readonly active: RefreshTokenRecord | null;
}

/** What the SessionStore applies atomically for one refresh. */
export type RotationDecision =
  /** The active token was presented: revoke it and make `next` the active token. */
  | { readonly kind: 'rotate'; readonly at: Date; readonly next: RefreshTokenRecord }
  /** A recently revoked token was presented: answer with the active token again. */
  | { readonly kind: 'reuse'; readonly at: Date; readonly active: RefreshTokenRecord }
  /** A token revoked too long ago was presented: end the session, revoking the whole family. */
  | { readonly kind: 'revoke_family'; readonly at: Date }
  /** The session has already ended: change nothing. */
  | { readonly kind: 'refuse' };

export interface RotationRules {
  readonly now: Date;
  readonly reuseIntervalMs?: number;
  /** The digest of the presented token's successor (computed only when rotating). */
  readonly successorHash: () => string;
}

/**
 * GoTrue's refresh-token rotation (internal/api/token_refresh.go), as a pure decision:
 * - the active token rotates: it is revoked and a new token takes its place;
 * - the immediate parent of the active token gets the active token (a client that lost the
 *   last reply recovers), at any time;
 * - any other revoked token gets the active token if it was revoked at most
 *   `reuseIntervalMs` ago (concurrent tabs), and otherwise ends the session: a reuse that
 *   late means the token leaked, so the whole family is revoked.
 */
export function decideRotation(view: RotationView, rules: RotationRules): RotationDecision {
  const { session, presented, active } = view;
  const { now } = rules;
  if (isEnded(session) || active === null) return { kind: 'refuse' };
  if (presented.revokedAt === null) {
    return {
      kind: 'rotate',
      at: now,
      next: Object.freeze({
        tokenHash: rules.successorHash(),
        sessionId: session.id,
        generation: presented.generation + 1,
        createdAt: now,
        revokedAt: null,
      }),
    };
  }
  if (presented.generation === active.generation - 1) return { kind: 'reuse', at: now, active };
  const reuseInterval = rules.reuseIntervalMs ?? REFRESH_REUSE_INTERVAL_MS;
  if (now.getTime() - presented.revokedAt.getTime() <= reuseInterval && presented.generation < active.generation) {
    return { kind: 'reuse', at: now, active };
  }
  return { kind: 'revoke_family', at: now };
}

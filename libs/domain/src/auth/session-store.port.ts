import type { AuthSession, RefreshTokenRecord, RotationDecision, RotationView, SessionEndReason } from './auth-session.js';

export type RotationResult =
  | { readonly kind: 'unknown_token' }
  | { readonly kind: 'decided'; readonly view: RotationView; readonly decision: RotationDecision };

export interface EndSessionsOptions {
  /** Keep this session (logout scope `others`, password change from a session). */
  readonly exceptSessionId?: string | null;
}

/**
 * Sessions and their refresh tokens. `rotate` is the heart of it: it finds the presented
 * token's session, locks it (SELECT … FOR UPDATE), lets the pure `decide` choose, and applies
 * the decision before releasing the lock — so concurrent refreshes of one session are
 * serialised and each sees the effect of the one before.
 */
export interface SessionStore {
  /** Stores a new session with its first (generation 0) refresh token. */
  create(session: AuthSession, firstToken: RefreshTokenRecord): Promise<void>;
  findById(id: string): Promise<AuthSession | null>;
  /**
   * Under the session's lock: reads the view, calls `decide` once with it, then applies the
   * decision —
   * - rotate: revoke the presented token at `at`, insert `next`, set refreshedAt = at;
   * - reuse: set refreshedAt = at;
   * - revoke_family: end the session at `at` (reason refresh_token_reused) and revoke all its tokens;
   * - refuse: nothing.
   * `unknown_token` when no token has this digest.
   */
  rotate(tokenHash: string, decide: (view: RotationView) => RotationDecision): Promise<RotationResult>;
  /** Ends one session and revokes its tokens; false when it was unknown or had already ended. */
  end(sessionId: string, at: Date, reason: SessionEndReason): Promise<boolean>;
  /** Ends every live session of the user (but the excepted one); answers how many it ended. */
  endAllForUser(userId: string, at: Date, reason: SessionEndReason, options?: EndSessionsOptions): Promise<number>;
}

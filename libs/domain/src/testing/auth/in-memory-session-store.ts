import type { AuthSession, RefreshTokenRecord, RotationDecision, RotationView, SessionEndReason } from '../../auth/auth-session.js';
import type { EndSessionsOptions, RotationResult, SessionStore } from '../../auth/session-store.port.js';
import type { Pause } from '../in-memory-credit-ledger.js';

/**
 * Sessions and refresh tokens in Maps. `rotate` reads, decides and writes in one synchronous
 * step between its pauses: the in-memory equivalent of the row lock, so concurrent refreshes
 * are serialised.
 */
export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, AuthSession>();
  private readonly tokens = new Map<string, RefreshTokenRecord>();

  constructor(private readonly pause: Pause = () => Promise.resolve()) {}

  async create(session: AuthSession, firstToken: RefreshTokenRecord): Promise<void> {
    await this.pause();
    if (this.sessions.has(session.id)) throw new Error(`Session ${session.id} already exists`);
    if (this.tokens.has(firstToken.tokenHash)) throw new Error('Refresh token digest already exists');
    this.sessions.set(session.id, Object.freeze({ ...session }));
    this.tokens.set(firstToken.tokenHash, Object.freeze({ ...firstToken }));
  }

  async findById(id: string): Promise<AuthSession | null> {
    await this.pause();
    return this.sessions.get(id) ?? null;
  }

  async rotate(tokenHash: string, decide: (view: RotationView) => RotationDecision): Promise<RotationResult> {
    await this.pause();
    const presented = this.tokens.get(tokenHash);
    const session = presented ? this.sessions.get(presented.sessionId) : undefined;
    if (!presented || !session) return { kind: 'unknown_token' };
    const active = this.tokensOf(session.id).find((t) => t.revokedAt === null) ?? null;
    const view: RotationView = { session, presented, active };
    const decision = decide(view);
    switch (decision.kind) {
      case 'rotate':
        this.tokens.set(presented.tokenHash, Object.freeze({ ...presented, revokedAt: decision.at }));
        this.tokens.set(decision.next.tokenHash, Object.freeze({ ...decision.next }));
        this.sessions.set(session.id, Object.freeze({ ...session, refreshedAt: decision.at }));
        break;
      case 'reuse':
        this.sessions.set(session.id, Object.freeze({ ...session, refreshedAt: decision.at }));
        break;
      case 'revoke_family':
        this.endNow(session, decision.at, 'refresh_token_reused');
        break;
      case 'refuse':
        break;
    }
    await this.pause();
    return { kind: 'decided', view, decision };
  }

  async end(sessionId: string, at: Date, reason: SessionEndReason): Promise<boolean> {
    await this.pause();
    const session = this.sessions.get(sessionId);
    if (!session || session.endedAt !== null) return false;
    this.endNow(session, at, reason);
    return true;
  }

  async endAllForUser(userId: string, at: Date, reason: SessionEndReason, options: EndSessionsOptions = {}): Promise<number> {
    await this.pause();
    let ended = 0;
    for (const session of this.sessions.values()) {
      if (session.userId !== userId || session.endedAt !== null || session.id === options.exceptSessionId) continue;
      this.endNow(session, at, reason);
      ended += 1;
    }
    return ended;
  }

  /** Test helper: a session's tokens, oldest first. */
  tokensOf(sessionId: string): RefreshTokenRecord[] {
    return [...this.tokens.values()].filter((t) => t.sessionId === sessionId).sort((a, b) => a.generation - b.generation);
  }

  /** Test helper: every session. */
  all(): AuthSession[] {
    return [...this.sessions.values()];
  }

  private endNow(session: AuthSession, at: Date, reason: SessionEndReason): void {
    this.sessions.set(session.id, Object.freeze({ ...session, endedAt: at, endReason: reason }));
    for (const token of this.tokensOf(session.id)) {
      if (token.revokedAt === null) this.tokens.set(token.tokenHash, Object.freeze({ ...token, revokedAt: at }));
    }
  }
}

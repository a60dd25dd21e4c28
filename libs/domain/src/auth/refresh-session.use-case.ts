import type { Clock } from '../shared/clock.port.js';
import { type Result, err, ok } from '../shared/result.js';
import { REFRESH_REUSE_INTERVAL_MS } from './auth.constants.js';
import {
  type RefreshTokenAlreadyUsed,
  type RefreshTokenNotFound,
  refreshTokenAlreadyUsed,
  refreshTokenNotFound,
} from './auth.errors.js';
import { REFRESH_TOKEN_PATTERN, decideRotation, descendantToken, successorToken } from './auth-session.js';
import { isDeleted } from './auth-user.entity.js';
import type { AuthUserRepository } from './auth-user-repository.port.js';
import type { SecretHasher } from './secret-hasher.port.js';
import type { IssuedSession, SessionIssuer } from './session-issuer.js';
import type { SessionStore } from './session-store.port.js';

export type RefreshError = RefreshTokenNotFound | RefreshTokenAlreadyUsed;

/**
 * POST /token?grant_type=refresh_token: rotates the refresh token (decideRotation) and mints
 * a new access token. The rotation runs under the session's lock in the SessionStore, so
 * concurrent refreshes with one token are serialised: the first rotates, the others receive
 * the token it produced.
 */
export class RefreshSession {
  constructor(
    private readonly sessions: SessionStore,
    private readonly users: AuthUserRepository,
    private readonly hasher: SecretHasher,
    private readonly issuer: SessionIssuer,
    private readonly clock: Clock,
    private readonly reuseIntervalMs: number = REFRESH_REUSE_INTERVAL_MS,
  ) {}

  async execute(input: { readonly refreshToken: string }): Promise<Result<IssuedSession, RefreshError>> {
    const presented = input.refreshToken;
    if (!REFRESH_TOKEN_PATTERN.test(presented)) return err(refreshTokenNotFound());
    const now = this.clock.now();
    const result = await this.sessions.rotate(this.hasher.digest(presented), (view) =>
      decideRotation(view, {
        now,
        reuseIntervalMs: this.reuseIntervalMs,
        successorHash: () => this.hasher.digest(successorToken(this.hasher, view.session.tokenSecret, presented)),
      }),
    );
    if (result.kind === 'unknown_token') return err(refreshTokenNotFound());
    const { view, decision } = result;
    let refreshToken: string;
    switch (decision.kind) {
      case 'refuse':
        return err(refreshTokenNotFound());
      case 'revoke_family':
        return err(refreshTokenAlreadyUsed());
      case 'rotate':
        refreshToken = successorToken(this.hasher, view.session.tokenSecret, presented);
        break;
      case 'reuse':
        refreshToken = descendantToken(this.hasher, view.session.tokenSecret, presented, decision.active.generation - view.presented.generation);
        if (this.hasher.digest(refreshToken) !== decision.active.tokenHash) {
          throw new Error(`Refresh token chain of session ${view.session.id} is inconsistent`);
        }
        break;
    }
    const user = await this.users.findById(view.session.userId);
    if (!user || isDeleted(user)) {
      await this.sessions.end(view.session.id, now, 'account_deleted');
      return err(refreshTokenNotFound());
    }
    return ok(await this.issuer.respond(user, view.session, refreshToken));
  }
}

import type { Clock } from '../shared/clock.port.js';
import { type Result, ok } from '../shared/result.js';
import type { SessionStore } from './session-store.port.js';

/** GoTrue's logout scopes: every session of the user, this one, or all but this one. */
export type LogoutScope = 'global' | 'local' | 'others';
export const LOGOUT_SCOPES: readonly LogoutScope[] = ['global', 'local', 'others'];

export interface LogoutInput {
  readonly userId: string;
  /** The session of the access token used (checked by the verifier beforehand). */
  readonly sessionId: string;
  readonly scope: LogoutScope;
}

/** POST /logout: ends sessions; their refresh tokens stop working and their access tokens are refused. */
export class Logout {
  constructor(
    private readonly sessions: SessionStore,
    private readonly clock: Clock,
  ) {}

  async execute(input: LogoutInput): Promise<Result<{ readonly ended: number }, never>> {
    const now = this.clock.now();
    switch (input.scope) {
      case 'local':
        return ok({ ended: (await this.sessions.end(input.sessionId, now, 'logout')) ? 1 : 0 });
      case 'global':
        return ok({ ended: await this.sessions.endAllForUser(input.userId, now, 'logout') });
      case 'others':
        return ok({ ended: await this.sessions.endAllForUser(input.userId, now, 'logout', { exceptSessionId: input.sessionId }) });
    }
  }
}

import type { AuthAssuranceLevel } from '../auth/auth-session.js';
import type { SessionStore } from '../auth/session-store.port.js';
import { type Result, err, ok } from '../shared/result.js';
import { isVerifiedFactor } from './factor.entity.js';
import type { FactorStore } from './factor-store.port.js';
import { type InsufficientAal, insufficientAal } from './mfa.errors.js';

export interface CredentialChangeInput {
  readonly userId: string;
  readonly sessionId: string | null;
  readonly aal: AuthAssuranceLevel;
  readonly changesEmail: boolean;
  readonly changesPassword: boolean;
}

/**
 * PUT /user on an account with a verified factor: changing the email or the password needs an
 * aal2 session (GoTrue's rule), so the password alone cannot hand the account's address or
 * password to someone else. One exception, for people who forgot their password: a session
 * started by a mailed recovery code may set a new password (not a new address) — it proved the
 * mailbox, the same bar as the reset itself, and it still needs the code to reach anything.
 */
export class CheckCredentialChange {
  constructor(
    private readonly factors: FactorStore,
    private readonly sessions: SessionStore,
  ) {}

  async execute(input: CredentialChangeInput): Promise<Result<void, InsufficientAal>> {
    if (input.aal === 'aal2' || (!input.changesEmail && !input.changesPassword)) return ok(undefined);
    const factors = await this.factors.listForUser(input.userId);
    if (!factors.some(isVerifiedFactor)) return ok(undefined);
    if (!input.changesEmail && input.sessionId !== null) {
      const session = await this.sessions.findById(input.sessionId);
      if (session?.amr.some((entry) => entry.method === 'recovery')) return ok(undefined);
    }
    return err(insufficientAal('AAL2 session is required to update email or password when MFA is enabled.'));
  }
}

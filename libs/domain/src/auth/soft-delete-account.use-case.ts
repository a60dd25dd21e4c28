import type { Clock } from '../shared/clock.port.js';
import { type Result, err, ok } from '../shared/result.js';
import { type AuthUserNotFound, authUserNotFound } from './auth.errors.js';
import { isDeleted } from './auth-user.entity.js';
import type { AuthUserRepository } from './auth-user-repository.port.js';
import type { SessionStore } from './session-store.port.js';

/**
 * POST /api/auth/soft-delete: marks the account deleted and ends all its sessions. It can no
 * longer sign in (the same invalid_credentials as an unknown address) and its address becomes
 * free for a new sign-up; the row stays for the records that point at it.
 */
export class SoftDeleteAccount {
  constructor(
    private readonly users: AuthUserRepository,
    private readonly sessions: SessionStore,
    private readonly clock: Clock,
  ) {}

  async execute(input: { readonly userId: string }): Promise<Result<{ readonly deletedAt: Date }, AuthUserNotFound>> {
    const user = await this.users.findById(input.userId);
    if (!user || isDeleted(user)) return err(authUserNotFound());
    const now = this.clock.now();
    const updated = await this.users.update(user.id, { deletedAt: now, emailChange: null, emailChangeSentAt: null, updatedAt: now });
    if (updated.outcome !== 'updated') return err(authUserNotFound());
    await this.sessions.endAllForUser(user.id, now, 'account_deleted');
    return ok({ deletedAt: now });
  }
}

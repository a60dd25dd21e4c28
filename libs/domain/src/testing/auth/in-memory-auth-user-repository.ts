import type { AuthUser, AuthUserPatch } from '../../auth/auth-user.entity.js';
import type { AuthUserRepository, InsertUserOutcome, UpdateUserOutcome } from '../../auth/auth-user-repository.port.js';
import type { EmailAddress } from '../../auth/email-address.js';
import type { Pause } from '../in-memory-credit-ledger.js';

/**
 * Accounts in a Map. Each method decides and writes in one synchronous step between its
 * pauses (like one SQL statement), and enforces the unique live address like the partial
 * unique index does.
 */
export class InMemoryAuthUserRepository implements AuthUserRepository {
  private readonly rows = new Map<string, AuthUser>();

  constructor(private readonly pause: Pause = () => Promise.resolve()) {}

  async findById(id: string): Promise<AuthUser | null> {
    await this.pause();
    return this.rows.get(id) ?? null;
  }

  async findByEmail(email: EmailAddress): Promise<AuthUser | null> {
    await this.pause();
    return this.liveHolder(email, null);
  }

  async insert(user: AuthUser): Promise<InsertUserOutcome> {
    await this.pause();
    if (this.rows.has(user.id)) throw new Error(`Auth user ${user.id} already exists`);
    if (user.deletedAt === null && this.liveHolder(user.email, null)) return 'email_taken';
    this.rows.set(user.id, Object.freeze({ ...user }));
    return 'inserted';
  }

  async update(id: string, patch: AuthUserPatch): Promise<UpdateUserOutcome> {
    await this.pause();
    const current = this.rows.get(id);
    if (!current) return { outcome: 'not_found' };
    const next: AuthUser = Object.freeze({ ...current, ...patch });
    if (next.deletedAt === null && this.liveHolder(next.email, id)) return { outcome: 'email_taken' };
    this.rows.set(id, next);
    return { outcome: 'updated', user: next };
  }

  /** Test helper: every stored account. */
  all(): AuthUser[] {
    return [...this.rows.values()];
  }

  private liveHolder(email: string, exceptId: string | null): AuthUser | null {
    for (const user of this.rows.values()) {
      if (user.email === email && user.deletedAt === null && user.id !== exceptId) return user;
    }
    return null;
  }
}

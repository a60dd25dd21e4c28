import type { AuthUser, AuthUserPatch } from './auth-user.entity.js';
import type { EmailAddress } from './email-address.js';

export type InsertUserOutcome = 'inserted' | 'email_taken';
export type UpdateUserOutcome =
  | { readonly outcome: 'updated'; readonly user: AuthUser }
  | { readonly outcome: 'email_taken' }
  | { readonly outcome: 'not_found' };

/**
 * The accounts of the built-in auth. An email address belongs to at most one account that is
 * not deleted (a unique index on the address where `deleted_at IS NULL`): inserting or moving
 * an account onto a taken address reports `email_taken` instead of writing.
 */
export interface AuthUserRepository {
  /** The account with this id, deleted or not. */
  findById(id: string): Promise<AuthUser | null>;
  /** The account that is not deleted holding this address. */
  findByEmail(email: EmailAddress): Promise<AuthUser | null>;
  insert(user: AuthUser): Promise<InsertUserOutcome>;
  /** Sets only the fields in `patch` (one UPDATE), and answers the account as stored afterwards. */
  update(id: string, patch: AuthUserPatch): Promise<UpdateUserOutcome>;
}

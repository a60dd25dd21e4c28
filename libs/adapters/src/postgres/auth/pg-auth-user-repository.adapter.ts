import type { AuthUser, AuthUserPatch, AuthUserRepository, EmailAddress, InsertUserOutcome, UpdateUserOutcome } from '@kiln/domain';
import type { PgUnitOfWork } from '../pg-unit-of-work.js';
import { isUniqueViolation, sql } from '../sql.js';
import { AuthUserOrmEntity } from './auth-user.orm-entity.js';
import { columnsOf, toAuthUser } from './auth.mapper.js';

/** The partial unique index: one live account per lower(email). */
const EMAIL_KEY = 'auth_users_email_key';

/** Each patchable field and its column (the mapped type makes a new AuthUser field a compile error here). */
const PATCH_COLUMNS: { readonly [K in keyof Required<AuthUserPatch>]: { readonly column: string; readonly json?: true } } = {
  email: { column: 'email' },
  passwordHash: { column: 'password_hash' },
  emailConfirmedAt: { column: 'email_confirmed_at' },
  phone: { column: 'phone' },
  userMetadata: { column: 'user_metadata', json: true },
  appMetadata: { column: 'app_metadata', json: true },
  updatedAt: { column: 'updated_at' },
  lastSignInAt: { column: 'last_sign_in_at' },
  confirmationSentAt: { column: 'confirmation_sent_at' },
  recoverySentAt: { column: 'recovery_sent_at' },
  emailChange: { column: 'email_change' },
  emailChangeSentAt: { column: 'email_change_sent_at' },
  deletedAt: { column: 'deleted_at' },
};

/**
 * Accounts in table `auth_users`. The unique live address is the partial unique index on
 * lower(email) WHERE deleted_at IS NULL: an insert onto a taken address does nothing (ON CONFLICT
 * on that index), an update onto one is refused by the index inside a savepoint, so neither
 * disturbs the caller's transaction. Updates set only the patched columns (one UPDATE).
 */
export class PgAuthUserRepository implements AuthUserRepository {
  constructor(private readonly tx: PgUnitOfWork) {}

  async findById(id: string): Promise<AuthUser | null> {
    const row = await this.tx.manager().findOneBy(AuthUserOrmEntity, { id });
    return row ? toAuthUser(row) : null;
  }

  async findByEmail(email: EmailAddress): Promise<AuthUser | null> {
    const manager = this.tx.manager();
    const { rows } = await sql<AuthUserOrmEntity>(
      manager,
      `SELECT ${columnsOf(manager, AuthUserOrmEntity, 'u')} FROM auth_users u WHERE lower(u.email) = lower($1) AND u.deleted_at IS NULL`,
      [email],
    );
    return rows[0] ? toAuthUser(rows[0]) : null;
  }

  /** A duplicate id is a bug and throws (the primary key); a taken address answers email_taken. */
  async insert(user: AuthUser): Promise<InsertUserOutcome> {
    const { rowCount } = await sql(
      this.tx.manager(),
      `INSERT INTO auth_users (id, identity_id, email, password_hash, email_confirmed_at, phone, user_metadata, app_metadata,
                               created_at, updated_at, last_sign_in_at, confirmation_sent_at, recovery_sent_at,
                               email_change, email_change_sent_at, deleted_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10, $11, $12, $13, $14, $15, $16)
       ON CONFLICT ((lower(email))) WHERE deleted_at IS NULL DO NOTHING
       RETURNING id`,
      [
        user.id,
        user.identityId,
        user.email,
        user.passwordHash,
        user.emailConfirmedAt,
        user.phone,
        JSON.stringify(user.userMetadata),
        JSON.stringify(user.appMetadata),
        user.createdAt,
        user.updatedAt,
        user.lastSignInAt,
        user.confirmationSentAt,
        user.recoverySentAt,
        user.emailChange,
        user.emailChangeSentAt,
        user.deletedAt,
      ],
    );
    return rowCount === 1 ? 'inserted' : 'email_taken';
  }

  async update(id: string, patch: AuthUserPatch): Promise<UpdateUserOutcome> {
    const assignments: string[] = [];
    const params: unknown[] = [id];
    for (const [field, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      const target = PATCH_COLUMNS[field as keyof AuthUserPatch] as (typeof PATCH_COLUMNS)[keyof AuthUserPatch] | undefined;
      if (!target) throw new Error(`AuthUserPatch field "${field}" cannot be updated`);
      params.push(target.json ? JSON.stringify(value) : value);
      assignments.push(`${target.column} = $${params.length}${target.json ? '::jsonb' : ''}`);
    }
    if (assignments.length === 0) {
      const current = await this.findById(id);
      return current ? { outcome: 'updated', user: current } : { outcome: 'not_found' };
    }
    try {
      // A savepoint inside the caller's transaction, so a refused address leaves it usable.
      return await this.tx.atomically<UpdateUserOutcome>(async (manager) => {
        const { rows } = await sql<AuthUserOrmEntity>(
          manager,
          `UPDATE auth_users u SET ${assignments.join(', ')} WHERE u.id = $1 RETURNING ${columnsOf(manager, AuthUserOrmEntity, 'u')}`,
          params,
        );
        return rows[0] ? { outcome: 'updated', user: toAuthUser(rows[0]) } : { outcome: 'not_found' };
      });
    } catch (error) {
      if (isUniqueViolation(error, EMAIL_KEY)) return { outcome: 'email_taken' };
      throw error;
    }
  }
}

import {
  type AuthMethodReference,
  type AuthSession,
  type AuthUser,
  CODE_PURPOSES,
  type CodePurpose,
  type EmailAddress,
  type JsonObject,
  type OneTimeCode,
  type RefreshTokenRecord,
  type SessionEndReason,
} from '@kiln/domain';
import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { AuthSessionOrmEntity } from './auth-session.orm-entity.js';
import type { AuthUserOrmEntity } from './auth-user.orm-entity.js';
import type { OneTimeCodeOrmEntity } from './one-time-code.orm-entity.js';
import type { RefreshTokenOrmEntity } from './refresh-token.orm-entity.js';

const selectLists = new WeakMap<object, Map<string, string>>();

/**
 * The SELECT / RETURNING list of an entity's columns, each aliased to its property name
 * (`u.password_hash AS "passwordHash"`), so raw SQL answers rows shaped like the entity and one
 * mapper serves raw SQL and TypeORM reads alike. Read from TypeORM's metadata: the entity is the
 * one list of columns.
 */
export function columnsOf(manager: EntityManager, entity: EntityTarget<ObjectLiteral>, alias: string): string {
  const metadata = manager.connection.getMetadata(entity);
  let byAlias = selectLists.get(metadata);
  if (!byAlias) selectLists.set(metadata, (byAlias = new Map()));
  let list = byAlias.get(alias);
  if (list === undefined) {
    list = metadata.columns.map((c) => `${alias}.${c.databaseName} AS "${c.propertyName}"`).join(', ');
    byAlias.set(alias, list);
  }
  return list;
}

const END_REASONS: readonly SessionEndReason[] = ['logout', 'refresh_token_reused', 'password_changed', 'account_deleted', 'mfa_upgraded'];

function oneOf<T extends string>(allowed: readonly T[], value: unknown, column: string): T {
  if (!allowed.includes(value as T)) throw new Error(`${column} holds an unexpected value: ${String(value)}`);
  return value as T;
}

function jsonObject(value: unknown, column: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${column} is not a JSON object`);
  return value as JsonObject;
}

function methodReferences(value: unknown): readonly AuthMethodReference[] {
  if (!Array.isArray(value)) throw new Error('auth_sessions.amr is not a JSON array');
  return Object.freeze(
    value.map((entry: unknown) => {
      const { method, timestamp } = (entry ?? {}) as Partial<AuthMethodReference>;
      if (typeof method !== 'string' || typeof timestamp !== 'number') throw new Error(`auth_sessions.amr holds an unexpected entry: ${JSON.stringify(entry)}`);
      return Object.freeze({ method, timestamp });
    }),
  );
}

export function toAuthUser(row: AuthUserOrmEntity): AuthUser {
  return Object.freeze({
    id: row.id,
    identityId: row.identityId,
    email: row.email as EmailAddress,
    passwordHash: row.passwordHash,
    emailConfirmedAt: row.emailConfirmedAt,
    phone: row.phone,
    userMetadata: jsonObject(row.userMetadata, 'auth_users.user_metadata'),
    appMetadata: jsonObject(row.appMetadata, 'auth_users.app_metadata'),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    lastSignInAt: row.lastSignInAt,
    confirmationSentAt: row.confirmationSentAt,
    recoverySentAt: row.recoverySentAt,
    emailChange: row.emailChange as EmailAddress | null,
    emailChangeSentAt: row.emailChangeSentAt,
    deletedAt: row.deletedAt,
  });
}

export function toOneTimeCode(row: OneTimeCodeOrmEntity): OneTimeCode {
  return Object.freeze({
    id: row.id,
    email: row.email as EmailAddress,
    purpose: oneOf<CodePurpose>(CODE_PURPOSES, row.purpose, 'auth_one_time_codes.purpose'),
    userId: row.userId,
    codeHash: row.codeHash,
    issuedAt: row.issuedAt,
    expiresAt: row.expiresAt,
    failedAttempts: row.failedAttempts,
    consumedAt: row.consumedAt,
  });
}

export function toAuthSession(row: AuthSessionOrmEntity): AuthSession {
  return Object.freeze({
    id: row.id,
    userId: row.userId,
    createdAt: row.createdAt,
    refreshedAt: row.refreshedAt,
    endedAt: row.endedAt,
    endReason: row.endReason === null ? null : oneOf(END_REASONS, row.endReason, 'auth_sessions.end_reason'),
    aal: oneOf(['aal1', 'aal2'] as const, row.aal, 'auth_sessions.aal'),
    amr: methodReferences(row.amr),
    tokenSecret: row.tokenSecret,
  });
}

/** A refresh token row (`id` is internal to the table and not read). */
export function toRefreshToken(row: Omit<RefreshTokenOrmEntity, 'id'>): RefreshTokenRecord {
  return Object.freeze({
    tokenHash: row.tokenHash,
    sessionId: row.sessionId,
    generation: row.generation,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
  });
}

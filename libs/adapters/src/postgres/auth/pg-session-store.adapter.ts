import type {
  AuthSession,
  EndSessionsOptions,
  RefreshTokenRecord,
  RotationDecision,
  RotationResult,
  RotationView,
  SessionEndReason,
  SessionStore,
} from '@kiln/domain';
import type { EntityManager } from 'typeorm';
import type { PgUnitOfWork } from '../pg-unit-of-work.js';
import { sql } from '../sql.js';
import { AuthSessionOrmEntity } from './auth-session.orm-entity.js';
import { columnsOf, toAuthSession, toRefreshToken } from './auth.mapper.js';
import { RefreshTokenOrmEntity } from './refresh-token.orm-entity.js';

/**
 * Step 1 of a rotation: the session of the token with digest `$1`, its row locked FOR UPDATE.
 * A concurrent refresh of the same session waits here until the one holding the lock commits;
 * the row it then gets is the one that refresh left.
 */
export const LOCK_SESSION_SQL = (sessionColumns: string) => `
SELECT ${sessionColumns}
  FROM auth_refresh_tokens AS t
  JOIN auth_sessions AS s ON s.id = t.session_id
 WHERE t.token_hash = $1
   FOR UPDATE OF s`;

/**
 * Step 2, under the lock (a new statement, so it sees everything the previous holder
 * committed): the presented token and the session's active one (often the same row).
 */
export const ROTATION_TOKENS_SQL = (tokenColumns: string) => `
SELECT ${tokenColumns}
  FROM auth_refresh_tokens AS t
 WHERE t.session_id = $1
   AND (t.token_hash = $2 OR t.revoked_at IS NULL)`;

/** Step 3, still under the lock: what the decision says (see `apply`). */
const REVOKE_TOKEN_SQL = 'UPDATE auth_refresh_tokens SET revoked_at = $2 WHERE token_hash = $1';
const INSERT_TOKEN_SQL = `
INSERT INTO auth_refresh_tokens (token_hash, session_id, generation, created_at, revoked_at)
VALUES ($1, $2, $3, $4, $5)`;
const MARK_REFRESHED_SQL = 'UPDATE auth_sessions SET refreshed_at = $2 WHERE id = $1';
const REVOKE_SESSION_TOKENS_SQL = 'UPDATE auth_refresh_tokens SET revoked_at = $2 WHERE session_id = ANY($1::text[]) AND revoked_at IS NULL';

/**
 * Sessions in `auth_sessions`, their refresh tokens (as digests) in `auth_refresh_tokens`.
 *
 * Every change to a session's tokens happens while its row is locked: `rotate` locks it with
 * SELECT … FOR UPDATE, reads the view, calls the pure decision once and applies it before the
 * transaction ends; `end` and `endAllForUser` lock (by updating) the session rows first and only
 * then, in a later statement, revoke their tokens — so no rotation can slip a new active token in
 * between. Each method is one transaction, or a savepoint of the caller's.
 */
export class PgSessionStore implements SessionStore {
  constructor(private readonly tx: PgUnitOfWork) {}

  create(session: AuthSession, firstToken: RefreshTokenRecord): Promise<void> {
    return this.tx.atomically(async (manager) => {
      await sql(
        manager,
        `INSERT INTO auth_sessions (id, user_id, created_at, refreshed_at, ended_at, end_reason, aal, amr, token_secret)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9)`,
        [
          session.id,
          session.userId,
          session.createdAt,
          session.refreshedAt,
          session.endedAt,
          session.endReason,
          session.aal,
          JSON.stringify(session.amr),
          session.tokenSecret,
        ],
      );
      await this.insertToken(manager, firstToken);
    });
  }

  async findById(id: string): Promise<AuthSession | null> {
    const row = await this.tx.manager().findOneBy(AuthSessionOrmEntity, { id });
    return row ? toAuthSession(row) : null;
  }

  rotate(tokenHash: string, decide: (view: RotationView) => RotationDecision): Promise<RotationResult> {
    return this.tx.atomically<RotationResult>(async (manager) => {
      const locked = await sql<AuthSessionOrmEntity>(manager, LOCK_SESSION_SQL(columnsOf(manager, AuthSessionOrmEntity, 's')), [tokenHash]);
      if (!locked.rows[0]) return { kind: 'unknown_token' };
      const session = toAuthSession(locked.rows[0]);
      const tokens = await sql<RefreshTokenOrmEntity>(manager, ROTATION_TOKENS_SQL(columnsOf(manager, RefreshTokenOrmEntity, 't')), [
        session.id,
        tokenHash,
      ]);
      const presentedRow = tokens.rows.find((t) => t.tokenHash === tokenHash);
      if (!presentedRow) throw new Error(`Refresh token of session ${session.id} vanished while its session was locked`);
      const activeRows = tokens.rows.filter((t) => t.revokedAt === null);
      if (activeRows.length > 1) throw new Error(`Session ${session.id} has ${activeRows.length} active refresh tokens`);
      const view: RotationView = { session, presented: toRefreshToken(presentedRow), active: activeRows[0] ? toRefreshToken(activeRows[0]) : null };
      const decision = decide(view);
      await this.apply(manager, view, decision);
      return { kind: 'decided', view, decision };
    });
  }

  end(sessionId: string, at: Date, reason: SessionEndReason): Promise<boolean> {
    return this.tx.atomically(async (manager) => {
      const { rowCount } = await sql(
        manager,
        'UPDATE auth_sessions SET ended_at = $2, end_reason = $3 WHERE id = $1 AND ended_at IS NULL RETURNING id',
        [sessionId, at, reason],
      );
      if (rowCount === 0) return false;
      await sql(manager, REVOKE_SESSION_TOKENS_SQL, [[sessionId], at]);
      return true;
    });
  }

  endAllForUser(userId: string, at: Date, reason: SessionEndReason, options: EndSessionsOptions = {}): Promise<number> {
    return this.tx.atomically(async (manager) => {
      // Lock the live sessions in id order (two concurrent calls cannot deadlock), then end them.
      const { rows } = await sql<{ id: string }>(
        manager,
        `SELECT id FROM auth_sessions
          WHERE user_id = $1 AND ended_at IS NULL AND ($2::text IS NULL OR id <> $2)
          ORDER BY id
            FOR UPDATE`,
        [userId, options.exceptSessionId ?? null],
      );
      if (rows.length === 0) return 0;
      const ids = rows.map((r) => r.id);
      const ended = await sql<{ id: string }>(
        manager,
        'UPDATE auth_sessions SET ended_at = $2, end_reason = $3 WHERE id = ANY($1::text[]) AND ended_at IS NULL RETURNING id',
        [ids, at, reason],
      );
      await sql(manager, REVOKE_SESSION_TOKENS_SQL, [ended.rows.map((r) => r.id), at]);
      return ended.rowCount;
    });
  }

  /** Applies a rotation decision (the SessionStore port's list), under the session's lock. */
  private async apply(manager: EntityManager, view: RotationView, decision: RotationDecision): Promise<void> {
    const sessionId = view.session.id;
    switch (decision.kind) {
      case 'rotate':
        // Revoke first: the partial unique index allows one active token per session.
        await sql(manager, REVOKE_TOKEN_SQL, [view.presented.tokenHash, decision.at]);
        await this.insertToken(manager, decision.next);
        await sql(manager, MARK_REFRESHED_SQL, [sessionId, decision.at]);
        return;
      case 'reuse':
        await sql(manager, MARK_REFRESHED_SQL, [sessionId, decision.at]);
        return;
      case 'revoke_family':
        await sql(manager, 'UPDATE auth_sessions SET ended_at = $2, end_reason = $3 WHERE id = $1', [sessionId, decision.at, 'refresh_token_reused']);
        await sql(manager, REVOKE_SESSION_TOKENS_SQL, [[sessionId], decision.at]);
        return;
      case 'refuse':
        return;
    }
  }

  private async insertToken(manager: EntityManager, token: RefreshTokenRecord): Promise<void> {
    await sql(manager, INSERT_TOKEN_SQL, [token.tokenHash, token.sessionId, token.generation, token.createdAt, token.revokedAt]);
  }
}

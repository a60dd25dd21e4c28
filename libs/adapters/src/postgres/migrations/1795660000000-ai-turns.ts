import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The chat's turns (PgTurnRepository): one row per user message and what became of it. Ids are
 * text (the domain makes them); one turn per user and idempotency key (a retried request finds
 * its turn). The plan is kept as JSON, as the domain's AiPlan.
 */
export class AiTurns1795660000000 implements MigrationInterface {
  name = 'AiTurns1795660000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ai_turns (
        id               text        NOT NULL CONSTRAINT ai_turns_pkey PRIMARY KEY,
        user_id          text        NOT NULL,
        project_id       text        NOT NULL,
        idempotency_key  text        NOT NULL,
        message          text        NOT NULL,
        auto_run         boolean     NOT NULL,
        status           text        NOT NULL CONSTRAINT ai_turns_status_check
                         CHECK (status IN ('queued', 'running', 'awaiting_approval', 'kept', 'reverted', 'failed', 'cancelled')),
        plan             jsonb,
        reply            text        NOT NULL,
        outcome          text,
        failure_code     text,
        commit_hash      text,
        credits_charged  integer     NOT NULL CONSTRAINT ai_turns_charged_check CHECK (credits_charged >= 0),
        credits_refunded integer     NOT NULL CONSTRAINT ai_turns_refunded_check CHECK (credits_refunded >= 0 AND credits_refunded <= credits_charged),
        created_at       timestamptz NOT NULL,
        updated_at       timestamptz NOT NULL,
        CONSTRAINT ai_turns_user_key_unique UNIQUE (user_id, idempotency_key)
      )`);
    await q.query(`CREATE INDEX ai_turns_project_idx ON ai_turns (project_id, created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE ai_turns');
  }
}

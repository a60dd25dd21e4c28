import type { AddTurnResult, AiPlan, Turn, TurnRepository, TurnStatus } from '@kiln/domain';
import type { PgUnitOfWork } from './pg-unit-of-work.js';

interface TurnRow {
  id: string;
  user_id: string;
  project_id: string;
  idempotency_key: string;
  message: string;
  auto_run: boolean;
  status: TurnStatus;
  plan: AiPlan | null;
  reply: string;
  outcome: string | null;
  failure_code: string | null;
  commit_hash: string | null;
  credits_charged: number;
  credits_refunded: number;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'id, user_id, project_id, idempotency_key, message, auto_run, status, plan, reply, outcome, failure_code, commit_hash, credits_charged, credits_refunded, created_at, updated_at';

function toTurn(row: TurnRow): Turn {
  return Object.freeze({
    id: row.id,
    userId: row.user_id,
    projectId: row.project_id,
    idempotencyKey: row.idempotency_key,
    message: row.message,
    autoRun: row.auto_run,
    status: row.status,
    plan: row.plan,
    reply: row.reply,
    outcome: row.outcome,
    failureCode: row.failure_code,
    commitHash: row.commit_hash,
    creditsCharged: row.credits_charged,
    creditsRefunded: row.credits_refunded,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  });
}

/** The values of every column but id, in COLUMNS order from $2. */
function values(turn: Turn): unknown[] {
  return [
    turn.userId,
    turn.projectId,
    turn.idempotencyKey,
    turn.message,
    turn.autoRun,
    turn.status,
    turn.plan === null ? null : JSON.stringify(turn.plan),
    turn.reply,
    turn.outcome,
    turn.failureCode,
    turn.commitHash,
    turn.creditsCharged,
    turn.creditsRefunded,
    turn.createdAt,
    turn.updatedAt,
  ];
}

const SET_ALL = `user_id = $2, project_id = $3, idempotency_key = $4, message = $5, auto_run = $6, status = $7, plan = $8::jsonb,
  reply = $9, outcome = $10, failure_code = $11, commit_hash = $12, credits_charged = $13, credits_refunded = $14, created_at = $15, updated_at = $16`;

/**
 * `ai_turns`: the chat history survives restarts. One statement per operation: the unique
 * (user, key) constraint makes concurrent adds of one key store one turn, and saveIf is one
 * conditional UPDATE (compare and set on the status).
 */
export class PgTurnRepository implements TurnRepository {
  constructor(private readonly tx: PgUnitOfWork) {}

  async add(turn: Turn): Promise<AddTurnResult> {
    const inserted = (await this.query(
      `INSERT INTO ai_turns (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, $14, $15, $16)
       ON CONFLICT (user_id, idempotency_key) DO NOTHING RETURNING ${COLUMNS}`,
      [turn.id, ...values(turn)],
    )) as TurnRow[];
    if (inserted[0] !== undefined) return { created: true, turn: toTurn(inserted[0]) };
    const existing = (await this.query(`SELECT ${COLUMNS} FROM ai_turns WHERE user_id = $1 AND idempotency_key = $2`, [
      turn.userId,
      turn.idempotencyKey,
    ])) as TurnRow[];
    if (existing[0] === undefined) throw new Error('A turn with this key was removed while being added; try again');
    return { created: false, turn: toTurn(existing[0]) };
  }

  async findById(id: string): Promise<Turn | null> {
    const rows = (await this.query(`SELECT ${COLUMNS} FROM ai_turns WHERE id = $1`, [id])) as TurnRow[];
    return rows[0] === undefined ? null : toTurn(rows[0]);
  }

  async listByProject(projectId: string): Promise<readonly Turn[]> {
    const rows = (await this.query(`SELECT ${COLUMNS} FROM ai_turns WHERE project_id = $1 ORDER BY created_at, id COLLATE "C"`, [projectId])) as TurnRow[];
    return rows.map(toTurn);
  }

  async listInProgress(): Promise<readonly Turn[]> {
    const rows = (await this.query(`SELECT ${COLUMNS} FROM ai_turns WHERE status IN ('queued', 'running') ORDER BY created_at, id COLLATE "C"`, [])) as TurnRow[];
    return rows.map(toTurn);
  }

  async save(turn: Turn): Promise<void> {
    await this.query(`UPDATE ai_turns SET ${SET_ALL} WHERE id = $1`, [turn.id, ...values(turn)]);
  }

  async saveIf(turn: Turn, expected: TurnStatus): Promise<boolean> {
    const result = (await this.query(`UPDATE ai_turns SET ${SET_ALL} WHERE id = $1 AND status = $17 RETURNING id`, [turn.id, ...values(turn), expected])) as unknown[];
    // TypeORM answers an UPDATE … RETURNING as [rows, affected count].
    const rows = Array.isArray(result[0]) ? (result[0] as unknown[]) : result;
    return rows.length === 1;
  }

  async remove(id: string): Promise<void> {
    await this.query('DELETE FROM ai_turns WHERE id = $1', [id]);
  }

  private query(sql: string, parameters: unknown[]): Promise<unknown> {
    return this.tx.manager().query(sql, parameters);
  }
}

import type { EntityManager } from 'typeorm';

export interface SqlResult<Row> {
  readonly rows: Row[];
  /** Rows inserted, updated or deleted (or returned by a SELECT). */
  readonly rowCount: number;
}

/**
 * Runs one parameterised statement on the manager's connection (the open transaction's, when
 * there is one) and returns its rows and row count, whatever the command.
 */
export async function sql<Row>(manager: EntityManager, text: string, params: readonly unknown[] = []): Promise<SqlResult<Row>> {
  const runner = manager.queryRunner ?? manager.dataSource.createQueryRunner();
  try {
    const result = await runner.query(text, [...params], true);
    const rows = (result.records ?? []) as Row[];
    return { rows, rowCount: result.affected ?? rows.length };
  } finally {
    if (runner !== manager.queryRunner) await runner.release();
  }
}

interface PgErrorFields {
  readonly code?: string;
  readonly constraint?: string;
}

function pgFields(error: unknown): PgErrorFields {
  if (typeof error !== 'object' || error === null) return {};
  const driverError = (error as { driverError?: unknown }).driverError;
  const source = (typeof driverError === 'object' && driverError !== null ? driverError : error) as PgErrorFields;
  return { code: source.code, constraint: source.constraint };
}

/** A unique violation (23505), optionally of one named constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const { code, constraint: actual } = pgFields(error);
  return code === '23505' && (constraint === undefined || actual === constraint);
}

/** Parses a PostgreSQL bigint (a string from pg) into a safe integer; throws past 2^53 − 1. */
export function toSafeInteger(value: string | number | bigint, column: string): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n) || (typeof value !== 'number' && BigInt(value) !== BigInt(n))) {
    throw new RangeError(`${column} = ${String(value)} is not a safe integer`);
  }
  return n;
}

export function toSafeIntegerOrNull(value: string | number | bigint | null, column: string): number | null {
  return value === null ? null : toSafeInteger(value, column);
}

/** The error every Pg repository throws when asked to update a row that does not exist (SPEC §5). */
export class RecordNotFoundError extends Error {
  constructor(readonly id: string) {
    super(`Record with id ${id} not found`);
    this.name = 'RecordNotFoundError';
  }
}

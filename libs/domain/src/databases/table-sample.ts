/**
 * A few rows of one table of `public`, shown to the assistant before it writes code that reads
 * them (the sample_rows tool, docs/databases.md "The assistant and the database"). The rows are
 * the app's end users' data and go to the model's provider: few, short, and secrets masked.
 */

/** A row as column name → JSON value (long values already cut to text). */
export type SampleRow = Readonly<Record<string, unknown>>;

/** At most this many rows per sample (the model asks for 1–5, default 3). */
export const SAMPLE_ROWS_MAX = 5;
export const SAMPLE_ROWS_DEFAULT = 3;
/** A value longer than this (as text) is cut to it and ends with "…". */
export const SAMPLE_VALUE_MAX_CHARS = 200;
/** At most this many columns of a row are shown (a sample, not a dump). */
export const SAMPLE_COLUMNS_MAX = 60;
/** What a masked value reads. */
export const HIDDEN_VALUE = '[hidden]';

/** The number of rows to read: an integer in 1..SAMPLE_ROWS_MAX (anything else: the nearest bound, or the default). */
export function sampleLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return SAMPLE_ROWS_DEFAULT;
  return Math.min(SAMPLE_ROWS_MAX, Math.max(1, Math.floor(limit)));
}

/**
 * Whether a table name can be looked up at all: 1–63 characters (PostgreSQL's limit) without
 * control characters. Anything else names no table; a provider never sees it.
 */
export function isSampleTableName(table: unknown): table is string {
  return typeof table === 'string' && table.length > 0 && table.length <= 63 && !/[\u0000-\u001f\u007f]/.test(table);
}

/** A value as the sample shows it: JSON scalars kept, anything longer than the bound cut to text. */
export function cutSampleValue(value: unknown): unknown {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  const text = typeof value === 'string' ? value : asText(value);
  if (text.length > SAMPLE_VALUE_MAX_CHARS) return `${text.slice(0, SAMPLE_VALUE_MAX_CHARS)}…`;
  return typeof value === 'string' || typeof value === 'object' ? value : text;
}

/** JSON text of a value; String() for what JSON cannot write (a bigint, a cycle). */
function asText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Column names that look like they hold secrets: their values never reach the model. */
const SECRET_COLUMN = /pass(word|wd|phrase)?|pwd|token|secret|hash|salt|api_?key|private_?key|credential|otp/i;

export const isSecretColumn = (name: string): boolean => SECRET_COLUMN.test(name);

/**
 * The rows as the model sees them: the values of secret-looking columns replaced by "[hidden]",
 * every other value cut (again: an adapter already cuts, this keeps the bound in one place), at
 * most SAMPLE_COLUMNS_MAX columns each.
 */
export function maskSampleRows(rows: readonly SampleRow[]): SampleRow[] {
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row)
        .slice(0, SAMPLE_COLUMNS_MAX)
        .map(([name, value]) => [name, isSecretColumn(name) && value !== null ? HIDDEN_VALUE : cutSampleValue(value)]),
    ),
  );
}

/** One `.sql` file of the project's migrations folder, by its file name (e.g. `20250101_todos.sql`). */
export interface MigrationFile {
  readonly name: string;
  readonly sql: string;
}

/**
 * What a run of the migrations did (docs/databases.md "Migrations"). All pending files run in ONE
 * transaction: either every one is applied and recorded, or none is.
 */
export type MigrationOutcome =
  | {
      readonly kind: 'applied';
      /** Files applied now, in order. */
      readonly applied: readonly string[];
      /** Files recorded as applied before that are no longer in the folder: their schema is kept. */
      readonly kept: readonly string[];
    }
  /** A file failed: nothing of this run stays. `line` is 1-based, when PostgreSQL gave a position. */
  | { readonly kind: 'failed'; readonly file: string; readonly line: number | null; readonly message: string }
  /** An applied file's text changed since it ran: nothing ran. */
  | { readonly kind: 'changed'; readonly file: string };

export interface MigrationOptions {
  /** Each file's statement timeout. */
  readonly statementTimeoutMs: number;
}

/**
 * Applies a project's migrations to its database as the owner role (never a superuser), records
 * them in `kiln.schema_migrations (name, checksum, applied_at)` and refuses a changed applied file.
 * Throws DatabaseServerDown when the provider cannot be reached.
 */
export interface SchemaMigrator {
  migrate(ref: string, files: readonly MigrationFile[], options: MigrationOptions): Promise<MigrationOutcome>;
  /** The names recorded in kiln.schema_migrations, by name. */
  applied(ref: string): Promise<readonly string[]>;
}

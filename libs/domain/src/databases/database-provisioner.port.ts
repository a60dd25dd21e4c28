import type { DatabaseLimits } from './database-limits.js';
import type { DatabaseConnection } from './project-database.entity.js';
import type { SampleRow } from './table-sample.js';

/** A column as the table browser shows it. */
export interface DatabaseColumn {
  readonly name: string;
  /** PostgreSQL's type name (format_type), e.g. `text`, `uuid`, `timestamp with time zone`. */
  readonly type: string;
  readonly nullable: boolean;
}

export interface DatabaseTable {
  readonly schema: string;
  readonly name: string;
  readonly rlsEnabled: boolean;
  /** PostgreSQL's estimate (pg_class.reltuples), 0 for a table never analysed. */
  readonly rowEstimate: number;
  readonly columns: readonly DatabaseColumn[];
}

export interface DatabaseInspection {
  readonly sizeBytes: number;
  /** The tables of the `public` schema, by name. */
  readonly tables: readonly DatabaseTable[];
}

/**
 * Creates and drops one database per project on a provider (docs/databases.md "Conventions":
 * database `kiln_app_<ref>`, its owner and authenticator roles, the auth schema, RLS on every new
 * table). Every method throws DatabaseServerDown when the provider cannot be reached.
 */
export interface DatabaseProvisioner {
  readonly provider: 'local' | 'neon';
  /**
   * Creates the database of `ref` with `limits`, or brings a half-created one to completion
   * (idempotent: a retry after a crash finishes the job); the authenticator's password is new
   * each call. Returns the authenticator's server-side login.
   */
  provision(ref: string, limits: DatabaseLimits): Promise<DatabaseConnection>;
  /**
   * Brings an existing database up to the current setup (what a newer Kiln adds to every project
   * database: the storage schema, realtime's triggers), keeping its login and its data;
   * idempotent, and only a version check when it is already current. False when it does not exist.
   */
  upgrade(ref: string): Promise<boolean>;
  /** Drops the database and its roles; nothing happens when they do not exist. */
  drop(ref: string): Promise<void>;
  /** Size and tables of the database, or null when it does not exist. */
  inspect(ref: string): Promise<DatabaseInspection | null>;
  /**
   * At most `limit` (capped at SAMPLE_ROWS_MAX) rows of table `table` of `public`, read-only and
   * under a short statement timeout, each value cut to SAMPLE_VALUE_MAX_CHARS; null when the
   * database or the table does not exist (the name is looked up among the tables of `public`,
   * never put into SQL as written).
   */
  sampleRows(ref: string, table: string, limit: number): Promise<SampleRow[] | null>;
}

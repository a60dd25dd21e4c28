import type { DatabaseLimits } from '../databases/database-limits.js';
import type { DatabaseInspection, DatabaseProvisioner, DatabaseTable } from '../databases/database-provisioner.port.js';
import { databaseNames } from '../databases/database-ref.js';
import { DatabaseServerDown } from '../databases/databases.errors.js';
import type { DatabaseConnection, ProjectDatabase } from '../databases/project-database.entity.js';
import type { ProjectDatabaseRepository } from '../databases/project-database-repository.port.js';
import { cutSampleValue, type SampleRow, SAMPLE_ROWS_MAX } from '../databases/table-sample.js';

interface FakeDatabase {
  limits: DatabaseLimits;
  tables: DatabaseTable[];
  sizeBytes: number;
  rows: Map<string, SampleRow[]>;
}

/**
 * A DatabaseProvisioner in memory: databases are entries of a map. `down` makes every call throw
 * DatabaseServerDown; `addTable`/`addRows`/`setSize` stand in for what migrations and data would do.
 */
export class InMemoryDatabaseProvisioner implements DatabaseProvisioner {
  readonly provider = 'local' as const;
  down = false;
  private readonly databases = new Map<string, FakeDatabase>();
  private passwords = 0;

  async provision(ref: string, limits: DatabaseLimits): Promise<DatabaseConnection> {
    this.check();
    const names = databaseNames(ref);
    const existing = this.databases.get(ref);
    if (existing) existing.limits = limits;
    else this.databases.set(ref, { limits, tables: [], sizeBytes: 8 * 1024 * 1024, rows: new Map() });
    this.passwords += 1;
    return { host: '127.0.0.1', port: 5432, database: names.database, user: names.authenticator, password: `in-memory-password-${this.passwords}`, ssl: false };
  }

  /** Refs brought up to the current setup (tests). */
  readonly upgraded: string[] = [];

  async upgrade(ref: string): Promise<boolean> {
    this.check();
    databaseNames(ref);
    if (!this.databases.has(ref)) return false;
    this.upgraded.push(ref);
    return true;
  }

  async drop(ref: string): Promise<void> {
    this.check();
    databaseNames(ref);
    this.databases.delete(ref);
  }

  async inspect(ref: string): Promise<DatabaseInspection | null> {
    this.check();
    databaseNames(ref);
    const database = this.databases.get(ref);
    if (!database) return null;
    return { sizeBytes: database.sizeBytes, tables: [...database.tables].sort((a, b) => a.name.localeCompare(b.name)) };
  }

  async sampleRows(ref: string, table: string, limit: number): Promise<SampleRow[] | null> {
    this.check();
    databaseNames(ref);
    const database = this.databases.get(ref);
    if (!database?.tables.some((t) => t.name === table)) return null;
    const n = Math.min(SAMPLE_ROWS_MAX, Math.max(1, Math.floor(limit) || 1));
    return (database.rows.get(table) ?? []).slice(0, n).map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, cutSampleValue(v)])));
  }

  /** Rows of a table, as the app's users would have written them. */
  addRows(ref: string, table: string, rows: readonly SampleRow[]): void {
    const database = this.get(ref);
    database.rows.set(table, [...(database.rows.get(table) ?? []), ...rows]);
  }

  /** A table as a migration would create it: RLS on, as the event trigger makes it. */
  addTable(ref: string, name: string, columns: DatabaseTable['columns'] = [], rlsEnabled = true): void {
    this.get(ref).tables.push({ schema: 'public', name, rlsEnabled, rowEstimate: 0, columns });
  }

  setSize(ref: string, sizeBytes: number): void {
    this.get(ref).sizeBytes = sizeBytes;
  }

  limitsOf(ref: string): DatabaseLimits | undefined {
    return this.databases.get(ref)?.limits;
  }

  /** What a migration's `alter table … disable row level security` does. */
  setRls(ref: string, name: string, rlsEnabled: boolean): void {
    const database = this.get(ref);
    database.tables = database.tables.map((t) => (t.name === name ? { ...t, rlsEnabled } : t));
  }

  has(ref: string): boolean {
    return this.databases.has(ref);
  }

  private get(ref: string): FakeDatabase {
    const database = this.databases.get(ref);
    if (!database) throw new Error(`No database ${ref}`);
    return database;
  }

  private check(): void {
    if (this.down) throw new DatabaseServerDown('in-memory provisioner is down');
  }
}

/** ProjectDatabaseRepository in memory: one record per project, refs unique. */
export class InMemoryProjectDatabaseRepository implements ProjectDatabaseRepository {
  private readonly records = new Map<string, ProjectDatabase>();

  async findByProject(projectId: string): Promise<ProjectDatabase | null> {
    return [...this.records.values()].find((d) => d.projectId === projectId) ?? null;
  }

  async findByRef(ref: string): Promise<ProjectDatabase | null> {
    return [...this.records.values()].find((d) => d.ref === ref) ?? null;
  }

  async insert(database: ProjectDatabase): Promise<boolean> {
    for (const d of this.records.values()) if (d.projectId === database.projectId || d.ref === database.ref || d.id === database.id) return false;
    this.records.set(database.id, database);
    return true;
  }

  async update(database: ProjectDatabase): Promise<void> {
    if (this.records.has(database.id)) this.records.set(database.id, database);
  }

  async remove(id: string): Promise<void> {
    this.records.delete(id);
  }
}

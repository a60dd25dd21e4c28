import type { TurnMigrations } from '../../ai/engine/turn-migrations.port.js';
import type { CodeError } from '../../sandbox/code-error.js';
import type { RemovedMigrations } from '../../sandbox/use-cases/project-versions.use-cases.js';
import type { OwnedProjects } from '../../projects/owned-projects.js';
import { type ProjectBusy, type ProjectNotFound, projectBusy } from '../../projects/project.errors.js';
import type { ProjectTurnLock } from '../../ai/engine/project-turn-lock.js';
import type { ProfileRepository } from '../../profiles/profile-repository.port.js';
import type { SandboxFiles } from '../../sandbox/sandbox-files.port.js';
import { isSandboxMissing } from '../../sandbox/sandbox-missing.js';
import { type Result, err, ok } from '../../shared/result.js';
import type { DatabasePlanLimits } from '../database-limits.js';
import {
  type DatabaseNotConnected,
  type DatabaseServerUnavailable,
  type MigrationChanged,
  type MigrationFailed,
  databaseNotConnected,
  migrationChanged,
  migrationFailed,
} from '../databases.errors.js';
import type { ProjectDatabase } from '../project-database.entity.js';
import type { ProjectDatabaseRepository } from '../project-database-repository.port.js';
import type { MigrationFile, SchemaMigrator } from '../schema-migrator.port.js';
import { databaseLimitsOf } from './provision-database.use-case.js';
import { providerCall } from './provider-call.js';
import { MIGRATION_FOLDERS } from '../../sandbox/migration-paths.js';

export { MIGRATION_FOLDERS, MIGRATION_NAME, isMigrationPath, nextMigrationPath } from '../../sandbox/migration-paths.js';

/** More files than this in the folder is refused rather than run (a hostile project's flood). */
export const MAX_MIGRATION_FILES = 500;
const MAX_NAME_LENGTH = 200;

export interface MigrationReport {
  /** The folder read, or null when the project has none (nothing to apply). */
  readonly folder: string | null;
  readonly applied: readonly string[];
  /** Applied earlier, no longer in the folder (an earlier version restored): the schema is kept. */
  readonly kept: readonly string[];
  /** What to tell the person, e.g. that removed migrations' tables were kept. */
  readonly message: string;
}

export type ApplyMigrationsError = ProjectNotFound | DatabaseNotConnected | DatabaseServerUnavailable | MigrationFailed | MigrationChanged;


/**
 * Applies the project's pending migrations (`supabase/migrations/*.sql`, else `db/migrations/*.sql`,
 * by name) to its database (docs/databases.md "Migrations"): POST /api/db/migrate/{projectId}, and
 * the end of an AI turn that changed the folder. A project without a ready database is
 * DATABASES.NOT_CONNECTED for the route and nothing for a turn.
 */
export class ApplyMigrations implements RemovedMigrations {
  constructor(
    private readonly owned: OwnedProjects,
    private readonly profiles: ProfileRepository,
    private readonly databases: ProjectDatabaseRepository,
    private readonly files: SandboxFiles,
    private readonly migrator: SchemaMigrator,
    private readonly limits: DatabasePlanLimits,
    /** The AI turns' lock, taken without waiting by the route (a turn runs its own under it). */
    private readonly lock?: Pick<ProjectTurnLock, 'tryRun'>,
  ) {}

  async execute(userId: string, projectId: string): Promise<Result<MigrationReport, ApplyMigrationsError | ProjectBusy>> {
    const project = await this.owned.find(userId, projectId);
    if (!project.ok) return project;
    const database = await this.databases.findByProject(projectId);
    if (!database || database.status !== 'ready') return err(databaseNotConnected());
    if (!this.lock) return this.run(database);
    // Never the files of a turn halfway through writing them.
    const attempt = await this.lock.tryRun(projectId, () => this.run(database));
    return attempt.ran ? attempt.value : err(projectBusy());
  }

  /** For the end of an AI turn: null when the project has no ready database (nothing to do). */
  async forProject(projectId: string): Promise<Result<MigrationReport, ApplyMigrationsError> | null> {
    const database = await this.databases.findByProject(projectId);
    if (!database || database.status !== 'ready') return null;
    return this.run(database);
  }

  /**
   * After a version was restored: the applied migrations no longer in the project (their schema
   * stays: Kiln never drops anything on its own). Empty without a database, and when the database
   * cannot be reached (the restore itself succeeded).
   */
  async keptAfterRestore(projectId: string): Promise<readonly string[]> {
    const database = await this.databases.findByProject(projectId);
    if (!database || database.status !== 'ready') return [];
    const found = await this.readFolder(projectId);
    const present = new Set(found.ok ? found.value.files.map((f) => f.name) : []);
    const applied = await providerCall(() => this.migrator.applied(database.ref));
    return applied.ok ? applied.value.filter((name) => !present.has(name)) : [];
  }

  private async run(database: ProjectDatabase): Promise<Result<MigrationReport, ApplyMigrationsError>> {
    const found = await this.readFolder(database.projectId);
    if (!found.ok) return found;
    const { folder, files } = found.value;
    const limits = await databaseLimitsOf(this.profiles, database.ownerId, this.limits);
    const outcome = await providerCall(() => this.migrator.migrate(database.ref, files, { statementTimeoutMs: limits.statementTimeoutMs }));
    if (!outcome.ok) return outcome;
    const result = outcome.value;
    const path = (name: string): string => (folder ? `${folder}/${name}` : name);
    if (result.kind === 'failed') return err(migrationFailed(path(result.file), result.line, result.message));
    if (result.kind === 'changed') return err(migrationChanged(path(result.file)));
    return ok({ folder, applied: result.applied, kept: result.kept, message: reportMessage(result.applied, result.kept) });
  }

  /** The `.sql` files of the first migrations folder that exists, sorted by name (code points). */
  private async readFolder(projectId: string): Promise<Result<{ folder: string | null; files: MigrationFile[] }, MigrationFailed>> {
    for (const folder of MIGRATION_FOLDERS) {
      if (!(await this.isFolder(projectId, folder))) continue;
      const entries = await this.files.readDirectory(projectId, folder, { includeContents: true });
      const files = entries
        .filter((e) => e.type === 'file' && e.name.endsWith('.sql'))
        .map((e) => ({ name: e.name, sql: e.content ?? '' }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      if (files.length > MAX_MIGRATION_FILES) {
        return err(migrationFailed(folder, null, `the folder has ${files.length} migration files, more than ${MAX_MIGRATION_FILES}`));
      }
      const long = files.find((f) => f.name.length > MAX_NAME_LENGTH);
      if (long) return err(migrationFailed(`${folder}/${long.name.slice(0, 40)}…`, null, `the file name is longer than ${MAX_NAME_LENGTH} characters`));
      return ok({ folder, files });
    }
    return ok({ folder: null, files: [] });
  }

  /** Walks down from the root so a missing folder is an answer, not an error to classify. */
  private async isFolder(projectId: string, folder: string): Promise<boolean> {
    let parent = '.';
    for (const name of folder.split('/')) {
      let entries;
      try {
        entries = await this.files.readDirectory(projectId, parent);
      } catch (error) {
        if (isSandboxMissing(error)) return false;
        throw error;
      }
      if (!entries.some((e) => e.name === name && e.type === 'directory')) return false;
      parent = parent === '.' ? name : `${parent}/${name}`;
    }
    return true;
  }
}

function reportMessage(applied: readonly string[], kept: readonly string[]): string {
  const done = applied.length === 0 ? 'The database is up to date.' : `Applied ${applied.length} migration${applied.length === 1 ? '' : 's'}: ${applied.join(', ')}.`;
  if (kept.length === 0) return done;
  return `${done} The migrations ${kept.join(', ')} are no longer in the project, but what they created was kept: Kiln never drops tables or data on its own. Write a new migration to remove it.`;
}

/**
 * The turns' TurnMigrations over ApplyMigrations: a failed or changed migration is one error at
 * its file and line; no database, or one that cannot be reached, is none (the files stay and the
 * next run applies them).
 */
export class TurnMigrationsOfProject implements TurnMigrations {
  constructor(private readonly migrations: Pick<ApplyMigrations, 'forProject'>) {}

  async apply(projectId: string): Promise<readonly CodeError[]> {
    let result: Awaited<ReturnType<ApplyMigrations['forProject']>>;
    try {
      result = await this.migrations.forProject(projectId);
    } catch (error) {
      // A folder the host refuses to read (too large, a link outside): the turn made it, the turn repairs it.
      const detail = error instanceof Error ? error.message : String(error);
      return [{ message: `The migrations could not be read: ${detail}`, file: MIGRATION_FOLDERS[0], line: 1, column: 1, severity: 'error' }];
    }
    if (result === null || result.ok) return [];
    const error = result.error;
    if (error.code !== 'DATABASES.MIGRATION_FAILED' && error.code !== 'DATABASES.MIGRATION_CHANGED') return [];
    const line = error.code === 'DATABASES.MIGRATION_FAILED' ? (error.line ?? 1) : 1;
    return [{ message: error.message, file: error.file, line, column: 1, severity: 'error' }];
  }
}

import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { ApiError, TYPES } from '../../app/ports';
import { type Logger, UI_TYPES } from '../../app/ui-ports';
import { errorText } from '../../app/error-text';
import type { DatabaseCheckDto, DatabasesApi, ProvisionedDatabaseDto } from '../../api/databases.api';

export const SERVER_UNREACHABLE = 'The database server is not reachable right now. Try again in a moment.';

/** Words for a failed database request: 503 is the server being away; a 402 quota message is shown as it comes. */
export function databaseErrorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status === 503) return SERVER_UNREACHABLE;
  return errorText(error, fallback);
}

const NOT_CONNECTED: DatabaseCheckDto = { connected: false, size_bytes: 0, tables: [] };

/**
 * The open project's database as the builder knows it (SPEC §3 project store: the database
 * connected flag). One per app: the Database dialog writes it, the Publish dialog reads which
 * tables have row-level security off, and the assistant can read whether a database is there.
 */
@injectable()
export class ProjectDatabaseStore {
  projectId = '';
  /** SPEC §3 `databaseConnected`. */
  databaseConnected = false;
  /** The last answer of GET /api/db/check (or what a provision told); null until known. */
  check: DatabaseCheckDto | null = null;
  loading = false;
  loadError: string | null = null;
  private generation = 0;

  constructor(
    @inject(TYPES.DatabasesApi) private readonly api: Pick<DatabasesApi, 'check'>,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
  ) {
    makeAutoObservable<ProjectDatabaseStore, 'api' | 'logger' | 'generation'>(this, { api: false, logger: false, generation: false }, { autoBind: true });
  }

  /** The builder opened a project: forget the last one's database and ask about this one's. */
  setProject(projectId: string): void {
    if (projectId === this.projectId) return;
    this.generation += 1;
    this.projectId = projectId;
    this.databaseConnected = false;
    this.check = null;
    this.loadError = null;
    void this.refresh();
  }

  /** GET /api/db/check for the open project; true when it answered. */
  async refresh(): Promise<boolean> {
    const projectId = this.projectId;
    if (projectId === '') return false;
    const generation = this.generation;
    this.loading = true;
    try {
      const check = await this.api.check(projectId);
      runInAction(() => {
        if (generation !== this.generation) return;
        this.check = check;
        this.databaseConnected = check.connected;
        this.loadError = null;
      });
      return generation === this.generation;
    } catch (error) {
      this.logger.warn('Database check failed', error);
      runInAction(() => {
        if (generation === this.generation) this.loadError = databaseErrorText(error, 'The database could not be checked.');
      });
      return false;
    } finally {
      runInAction(() => {
        if (generation === this.generation) this.loading = false;
      });
    }
  }

  /** A provision answered for `projectId` (ignored when the builder has moved to another project). */
  setConnected(projectId: string, database: ProvisionedDatabaseDto): void {
    if (projectId !== this.projectId) return;
    const previous = this.check?.connected === true && this.check.ref === database.ref ? this.check : NOT_CONNECTED;
    this.check = { ...previous, connected: true, ref: database.ref, url: database.url, anon_key: database.anon_key };
    this.databaseConnected = true;
    this.loadError = null;
  }

  setDisconnected(projectId: string): void {
    if (projectId !== this.projectId) return;
    this.check = NOT_CONNECTED;
    this.databaseConnected = false;
  }

  /** Names of the tables anyone with the app could read or change (row-level security off). */
  get unsafeTables(): string[] {
    if (this.check?.connected !== true) return [];
    return this.check.tables.filter((table) => !table.rls_enabled).map((table) => table.name);
  }
}

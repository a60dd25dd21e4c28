import { randomBytes } from 'node:crypto';
import {
  type DatabaseConnection,
  type DatabaseInspection,
  type DatabaseLimits,
  type DatabaseProvisioner,
  DatabaseServerDown,
  type SampleRow,
  databaseNames,
} from '@kiln/domain';
import { type Api, createApiClient } from '@neondatabase/api-client';
import pg from 'pg';
import { installDataApiFunctions } from './data-api-functions.js';
import { INSPECT_SQL, ident, projectDatabaseSetup } from './project-database-sql.js';
import { recordSetupVersion, setupVersion, upgradeSetup } from './setup-version.js';
import { readTableSample } from './table-sample-sql.js';

export interface NeonProvisionerOptions {
  /** NEON_API_KEY */
  readonly apiKey: string;
  /** NEON_API_URL (default https://console.neon.tech/api/v2; tests point it at a fake). */
  readonly apiUrl: string;
  /** Neon's region for new projects (default: the account's default). */
  readonly regionId?: string;
  /** Whether connections to the returned host need TLS (Neon: always; a test fake: no). */
  readonly ssl?: boolean;
}

const DUPLICATE = new Set(['42710', '23505']);

/**
 * One Neon project per project database, through Neon's API (`@neondatabase/api-client`):
 * project `kiln_app_<ref>` with database `kiln_app_<ref>` and role `kiln_app_<ref>_owner` (a login
 * role on Neon: Neon's API roles are members of neon_superuser, so Kiln never hands it out — its
 * password is fetched per operation and never stored). Through the owner's connection Kiln then
 * creates the least-privilege authenticator, anon/authenticated and the auth schema as on the
 * local provider. Neon gives no superuser, so there is no RLS event trigger: migrations enable
 * RLS themselves, and publishing refuses a table without it (docs/databases.md "Neon").
 */
export class NeonProvisioner implements DatabaseProvisioner {
  readonly provider = 'neon' as const;
  private readonly api: Api<unknown>;

  constructor(private readonly options: NeonProvisionerOptions) {
    this.api = createApiClient({ apiKey: options.apiKey, baseURL: options.apiUrl, timeout: 30_000 });
  }

  async provision(ref: string, limits: DatabaseLimits): Promise<DatabaseConnection> {
    const names = databaseNames(ref);
    const password = randomBytes(24).toString('hex');
    const connections = Math.max(1, Math.floor(limits.connections));
    const timeoutMs = Math.max(100, Math.floor(limits.statementTimeoutMs));
    const projectId = (await this.findProject(names.database)) ?? (await this.createProject(ref));
    const ownerUrl = await this.ownerUri(projectId, ref);
    await this.asOwner(ownerUrl, async (client) => {
      for (const role of ['anon', 'authenticated']) await ignoringDuplicate(client, `CREATE ROLE ${role} NOLOGIN NOINHERIT`);
      // Not a superuser here: the role's other attributes keep their NO defaults (only a superuser may name them).
      await ignoringDuplicate(client, `CREATE ROLE ${ident(names.authenticator)} LOGIN NOINHERIT`);
      const authenticator = ident(names.authenticator);
      await client.query(`ALTER ROLE ${authenticator} CONNECTION LIMIT ${connections} PASSWORD ${pg.escapeLiteral(password)}`);
      await client.query(`ALTER ROLE ${authenticator} SET statement_timeout = ${timeoutMs}`);
      await client.query(`ALTER ROLE ${authenticator} SET idle_in_transaction_session_timeout = ${timeoutMs * 2}`);
      await client.query(`GRANT anon, authenticated TO ${authenticator}`);
      await client.query('BEGIN');
      const setup = projectDatabaseSetup(ref, { eventTrigger: false });
      await client.query(setup);
      await installDataApiFunctions(client);
      await recordSetupVersion(client, setupVersion(setup));
      await client.query('COMMIT');
    });
    const url = new URL(ownerUrl);
    return {
      host: url.hostname,
      port: Number(url.port || 5432),
      database: names.database,
      user: names.authenticator,
      password,
      ssl: this.options.ssl ?? true,
    };
  }

  async drop(ref: string): Promise<void> {
    const names = databaseNames(ref);
    this.upToDate.delete(ref);
    const projectId = await this.findProject(names.database);
    if (projectId === null) return;
    await this.call(() => this.api.deleteProject(projectId));
  }

  /** Refs upgraded by this process: later calls answer at once (another process's upgrade is the same SQL). */
  private readonly upToDate = new Set<string>();

  async upgrade(ref: string): Promise<boolean> {
    const names = databaseNames(ref);
    if (this.upToDate.has(ref)) return true;
    const projectId = await this.findProject(names.database);
    if (projectId === null) return false;
    const setup = projectDatabaseSetup(ref, { eventTrigger: false });
    await this.asOwner(await this.ownerUri(projectId, ref), (client) =>
      upgradeSetup(client, setupVersion(setup), async () => {
        await client.query(setup);
        await installDataApiFunctions(client);
      }),
    );
    this.upToDate.add(ref);
    return true;
  }

  async inspect(ref: string): Promise<DatabaseInspection | null> {
    const names = databaseNames(ref);
    const projectId = await this.findProject(names.database);
    if (projectId === null) return null;
    const ownerUrl = await this.ownerUri(projectId, ref);
    return this.asOwner(ownerUrl, async (client) => {
      const { rows } = await client.query<{ size_bytes: string; tables: Array<{ name: string; rls: boolean; rows: number; columns: Array<{ name: string; type: string; nullable: boolean }> }> }>(INSPECT_SQL);
      const row = rows[0]!;
      return {
        sizeBytes: Number(row.size_bytes),
        tables: row.tables.map((t) => ({ schema: 'public', name: t.name, rlsEnabled: t.rls, rowEstimate: Number(t.rows), columns: t.columns })),
      };
    });
  }

  async sampleRows(ref: string, table: string, limit: number): Promise<SampleRow[] | null> {
    const names = databaseNames(ref);
    const projectId = await this.findProject(names.database);
    if (projectId === null) return null;
    const ownerUrl = await this.ownerUri(projectId, ref);
    return this.asOwner(ownerUrl, (client) => readTableSample(client, table, limit));
  }

  /**
   * A connected client logged in as the owner of `ref`'s database, for migrations (Neon has no
   * superuser; the owner is Kiln's and never handed out). Rejects with DatabaseServerDown when
   * the Neon project does not exist or cannot be reached.
   */
  /**
   * The owner's connection URI of `ref`'s database, asked of Neon now (Kiln keeps no owner
   * password: a caller holds it in memory only, e.g. app sign-in's pool). TLS required unless the
   * provisioner was made without it (a test fake). Rejects with DatabaseServerDown when the Neon
   * project does not exist or Neon cannot be reached.
   */
  async ownerUrl(ref: string): Promise<string> {
    const names = databaseNames(ref);
    const projectId = await this.findProject(names.database);
    if (projectId === null) throw new DatabaseServerDown(`no Neon project for ${names.database}`);
    const url = new URL(await this.ownerUri(projectId, ref));
    if (this.options.ssl !== false && !url.searchParams.has('sslmode')) url.searchParams.set('sslmode', 'require');
    return url.toString();
  }

  async ownerClient(ref: string): Promise<pg.Client> {
    const names = databaseNames(ref);
    const projectId = await this.findProject(names.database);
    if (projectId === null) throw new DatabaseServerDown(`no Neon project for ${names.database}`);
    const url = await this.ownerUri(projectId, ref);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, ...(this.options.ssl === false ? {} : { ssl: true }) });
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (error) {
      throw new DatabaseServerDown(`Neon database unreachable: ${(error as Error).message}`);
    }
    return client;
  }

  /** The Neon project named `name` (Neon's search matches partially: the name is compared exactly). */
  private async findProject(name: string): Promise<string | null> {
    const response = await this.call(() => this.api.listProjects({ search: name, limit: 10 }));
    return response.data.projects.find((p) => p.name === name)?.id ?? null;
  }

  private async createProject(ref: string): Promise<string> {
    const names = databaseNames(ref);
    const response = await this.call(() =>
      this.api.createProject({
        project: {
          name: names.database,
          ...(this.options.regionId ? { region_id: this.options.regionId } : {}),
          branch: { database_name: names.database, role_name: names.owner },
        },
      }),
    );
    return response.data.project.id;
  }

  private async ownerUri(projectId: string, ref: string): Promise<string> {
    const names = databaseNames(ref);
    const response = await this.call(() => this.api.getConnectionUri({ projectId, database_name: names.database, role_name: names.owner }));
    return response.data.uri;
  }

  private async asOwner<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, ...(this.options.ssl === false ? {} : { ssl: true }) });
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (error) {
      throw new DatabaseServerDown(`Neon database unreachable: ${(error as Error).message}`);
    }
    try {
      return await work(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** Neon's API: unreachable, 5xx, 429 and auth failures are "the provider is unavailable"; a 4xx about the request is a bug. */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      const status = (error as { response?: { status?: number } }).response?.status;
      if (status === undefined || status >= 500 || status === 429 || status === 401 || status === 403) {
        throw new DatabaseServerDown(`Neon API ${status === undefined ? 'unreachable' : `answered ${status}`}`);
      }
      throw error;
    }
  }
}

async function ignoringDuplicate(client: pg.Client, sql: string): Promise<void> {
  try {
    await client.query(sql);
  } catch (error) {
    if (DUPLICATE.has(String((error as { code?: unknown }).code))) return;
    throw error;
  }
}

// A project's database: the provisioning routes of docs/databases.md ("Provisioning API").
// Snake_case DTOs exactly as the API sends them.
import { inject, injectable } from 'inversify';
import { type HttpClient, TYPES } from '../app/ports';

/** POST /api/db/provision: what the generated app needs to reach its data (never a password). */
export interface ProvisionedDatabaseDto {
  readonly project_id: string;
  readonly ref: string;
  /** The data origin (supabase-js createClient URL). */
  readonly url: string;
  /** Public by design: rows are protected by row-level security. */
  readonly anon_key: string;
  readonly connected: true;
}

export interface DatabaseColumnDto {
  readonly name: string;
  readonly type: string;
  readonly nullable: boolean;
}

export interface DatabaseTableDto {
  readonly schema: string;
  readonly name: string;
  readonly rls_enabled: boolean;
  /** PostgreSQL's estimate of the row count. */
  readonly row_estimate: number;
  readonly columns: readonly DatabaseColumnDto[];
}

/** GET /api/db/check/:projectId. The optional fields are present when connected. */
export interface DatabaseCheckDto {
  readonly connected: boolean;
  readonly ref?: string;
  readonly url?: string;
  readonly anon_key?: string;
  readonly size_bytes: number;
  readonly quota_bytes?: number;
  readonly over_quota?: boolean;
  readonly max_connections?: number;
  readonly tables: readonly DatabaseTableDto[];
}

/** DELETE /database/:projectId. */
export interface DisconnectedDatabaseDto {
  readonly ref: string;
  /** true: dropped with its data; false: detached, the data kept. */
  readonly deleted_from_provider: boolean;
  readonly connected: false;
}

export interface DatabasesApi {
  /** Connects a database (idempotent: a connected or detached one comes back with the same keys). */
  provision(projectId: string): Promise<ProvisionedDatabaseDto>;
  check(projectId: string): Promise<DatabaseCheckDto>;
  /** deleteFromProvider: true drops the database and its data; false detaches it and keeps the data. */
  disconnect(projectId: string, deleteFromProvider: boolean): Promise<DisconnectedDatabaseDto>;
}

@injectable()
export class HttpDatabasesApi implements DatabasesApi {
  constructor(@inject(TYPES.Http) private readonly http: HttpClient) {}

  // Once only: a retry after a 5xx would race the first request's claim (409 DATABASES.PROVISIONING).
  provision(projectId: string): Promise<ProvisionedDatabaseDto> {
    return this.http.post<ProvisionedDatabaseDto>('/api/db/provision', { project_id: projectId }, { retry: false });
  }

  check(projectId: string): Promise<DatabaseCheckDto> {
    return this.http.get<DatabaseCheckDto>(`/api/db/check/${encodeURIComponent(projectId)}`);
  }

  // Once only: dropping data is not repeated behind the person's back.
  disconnect(projectId: string, deleteFromProvider: boolean): Promise<DisconnectedDatabaseDto> {
    return this.http.delete<DisconnectedDatabaseDto>(`/database/${encodeURIComponent(projectId)}?deleteFromProvider=${deleteFromProvider}`, { retry: false });
  }
}

// Test double of the databases API (tests only; production never imports this).
import { ApiError } from '../app/ports';
import { ScriptedCalls } from './scripted-calls';
import type { DatabaseCheckDto, DatabaseTableDto, DatabasesApi, DisconnectedDatabaseDto, ProvisionedDatabaseDto } from '../api/databases.api';

export const REF = 'abcdefghij0123456789';
export const DATA_URL = `http://${REF}.data.localhost:3000`;
export const ANON_KEY = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoiYW5vbiJ9.sig';
export const MB = 1024 * 1024;

export function table(name: string, overrides: Partial<DatabaseTableDto> = {}): DatabaseTableDto {
  return {
    schema: 'public',
    name,
    rls_enabled: true,
    row_estimate: 0,
    columns: [
      { name: 'id', type: 'uuid', nullable: false },
      { name: 'title', type: 'text', nullable: true },
    ],
    ...overrides,
  };
}

export function connectedCheck(overrides: Partial<DatabaseCheckDto> = {}): DatabaseCheckDto {
  return {
    connected: true,
    ref: REF,
    url: DATA_URL,
    anon_key: ANON_KEY,
    size_bytes: 8 * MB,
    quota_bytes: 100 * MB,
    over_quota: false,
    max_connections: 3,
    tables: [],
    ...overrides,
  };
}

export const NOT_CONNECTED: DatabaseCheckDto = { connected: false, size_bytes: 0, tables: [] };

export const unavailable = () => new ApiError('The database server is unavailable. Try again in a moment.', 503, 'DATABASES.SERVER_UNAVAILABLE', null);

type Method = keyof DatabasesApi;

/**
 * A project database server in miniature: provision connects (same ref again), disconnect
 * detaches or drops; `fail(method, error)` throws once; `hold(method)` keeps the next call
 * pending until `release(method)`.
 */
export class FakeDatabasesApi extends ScriptedCalls<Method> implements DatabasesApi {
  connected = false;
  /** What a connected check answers (tables, size…). */
  database: DatabaseCheckDto = connectedCheck();

  async provision(projectId: string): Promise<ProvisionedDatabaseDto> {
    await this.step('provision', `provision ${projectId}`);
    this.connected = true;
    return { project_id: projectId, ref: this.database.ref ?? REF, url: this.database.url ?? DATA_URL, anon_key: this.database.anon_key ?? ANON_KEY, connected: true };
  }

  async check(projectId: string): Promise<DatabaseCheckDto> {
    await this.step('check', `check ${projectId}`);
    return this.connected ? this.database : NOT_CONNECTED;
  }

  async disconnect(projectId: string, deleteFromProvider: boolean): Promise<DisconnectedDatabaseDto> {
    await this.step('disconnect', `disconnect ${projectId} ${deleteFromProvider}`);
    if (!this.connected) throw new ApiError('This project has no database connected.', 404, 'DATABASES.NOT_CONNECTED', null);
    this.connected = false;
    if (deleteFromProvider) this.database = connectedCheck({ ref: 'zyxwvutsrq9876543210', url: 'http://zyxwvutsrq9876543210.data.localhost:3000', anon_key: 'new.key.sig', tables: [] });
    return { ref: REF, deleted_from_provider: deleteFromProvider, connected: false };
  }
}

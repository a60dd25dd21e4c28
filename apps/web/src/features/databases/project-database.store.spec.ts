import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../app/ports';
import { RecordingLogger, flush } from '../../testing/ui-fakes';
import { ANON_KEY, DATA_URL, FakeDatabasesApi, REF, connectedCheck, table } from '../../testing/databases-fakes';
import { ProjectDatabaseStore, databaseErrorText } from './project-database.store';

const provisioned = (projectId: string, ref = REF) => ({ project_id: projectId, ref, url: DATA_URL, anon_key: ANON_KEY, connected: true as const });

async function storeFor(projectId: string, api = new FakeDatabasesApi()) {
  const logger = new RecordingLogger();
  const store = new ProjectDatabaseStore(api, logger);
  store.setProject(projectId);
  await flush();
  return { api, store, logger };
}

describe('ProjectDatabaseStore', () => {
  it('a provision for the open project keeps the tables it knows of the same database; another ref starts empty', async () => {
    const api = new FakeDatabasesApi();
    api.connected = true;
    api.database = connectedCheck({ tables: [table('todos')] });
    const { store } = await storeFor('p1', api);
    store.setConnected('p1', provisioned('p1'));
    expect(store.check?.tables.map((t) => t.name)).toEqual(['todos']);
    store.setConnected('p1', provisioned('p1', 'zyxwvutsrq9876543210'));
    expect(store.check).toMatchObject({ connected: true, ref: 'zyxwvutsrq9876543210', tables: [] });
  });

  it('ignores a provision or a disconnect of a project the builder has left', async () => {
    const { store } = await storeFor('p2');
    store.setConnected('p1', provisioned('p1'));
    expect(store.databaseConnected).toBe(false);
    store.setConnected('p2', provisioned('p2'));
    store.setDisconnected('p1');
    expect(store.databaseConnected).toBe(true);
    store.setDisconnected('p2');
    expect(store.databaseConnected).toBe(false);
    expect(store.unsafeTables).toEqual([]);
  });

  it('a failed check is logged and worded; no project means no request', async () => {
    const api = new FakeDatabasesApi();
    api.fail('check', new ApiError('Request failed', 0, 'NETWORK', null));
    const { store, logger } = await storeFor('p1', api);
    expect(store.loadError).toBe('Request failed');
    expect(logger.lines).toEqual(['warn: Database check failed']);
    const empty = new ProjectDatabaseStore(api, new RecordingLogger());
    expect(await empty.refresh()).toBe(false);
    expect(api.calls).toEqual(['check p1']);
  });

  it('words: 503 is the server being away; other failures as the server says them', () => {
    expect(databaseErrorText(new ApiError('x', 503, 'DATABASES.SERVER_UNAVAILABLE', null), 'f')).toMatch(/^The database server is not reachable right now/);
    expect(databaseErrorText(new ApiError('Over quota', 402, 'DATABASES.QUOTA_EXCEEDED', null), 'f')).toBe('Over quota');
    expect(databaseErrorText('not an error', 'fallback')).toBe('fallback');
  });
});

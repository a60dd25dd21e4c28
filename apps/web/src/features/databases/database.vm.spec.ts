import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../app/ports';
import { FakeClipboard, FakeToasts, RecordingLogger, flush } from '../../testing/ui-fakes';
import { ANON_KEY, DATA_URL, FakeDatabasesApi, MB, connectedCheck, table, unavailable } from '../../testing/databases-fakes';
import { DatabaseVm, rowsText, sizeUse } from './database.vm';
import { ProjectDatabaseStore, SERVER_UNREACHABLE } from './project-database.store';

function setup(options: { clipboardFails?: boolean } = {}) {
  const api = new FakeDatabasesApi();
  const store = new ProjectDatabaseStore(api, new RecordingLogger());
  const clipboard = new FakeClipboard(options.clipboardFails ?? false);
  const toasts = new FakeToasts();
  const vm = new DatabaseVm(store, api, clipboard, toasts, new RecordingLogger());
  return { api, store, clipboard, toasts, vm };
}

const quotaExceeded = () =>
  new ApiError('This project’s database uses 101 MB of its 100 MB. Delete data or upgrade your plan to write more.', 402, 'DATABASES.QUOTA_EXCEEDED', {
    code: 'DATABASES.QUOTA_EXCEEDED',
    size_bytes: 101 * MB,
    quota_bytes: 100 * MB,
  });

describe('DatabaseVm: whether the project has a database', () => {
  it('checks when the builder opens a project; not connected offers "Connect a database"', async () => {
    const { api, store, vm } = setup();
    vm.setProject('p1');
    expect(vm.checking).toBe(true);
    await flush();
    expect(api.calls).toEqual(['check p1']);
    expect(vm.checking).toBe(false);
    expect(vm.connected).toBe(false);
    expect(store.databaseConnected).toBe(false);
    expect(vm.dataUrl).toBeNull();
    expect(vm.tables).toEqual([]);
  });

  it('a connected project sets the SPEC project store flag and shows its URL, key, size and tables after a reload', async () => {
    const { api, store, vm } = setup();
    api.connected = true;
    api.database = connectedCheck({ tables: [table('todos', { row_estimate: 1234 })] });
    vm.setProject('p1');
    await flush();
    expect(store.databaseConnected).toBe(true);
    expect(vm.dataUrl).toBe(DATA_URL);
    expect(vm.anonKey).toBe(ANON_KEY);
    expect(vm.size).toEqual({ text: '8.0 MB of 100 MB', percent: 8, over: false });
    expect(vm.tables).toEqual([{ name: 'todos', rlsEnabled: true, rows: 'about 1,234 rows', columns: table('todos').columns }]);
  });

  it('the same project again asks nothing; another project forgets the first one’s database', async () => {
    const { api, store, vm } = setup();
    api.connected = true;
    vm.setProject('p1');
    await flush();
    vm.setProject('p1');
    api.connected = false;
    vm.setProject('p2');
    expect(store.databaseConnected).toBe(false);
    expect(store.check).toBeNull();
    await flush();
    expect(api.calls).toEqual(['check p1', 'check p2']);
    expect(vm.connected).toBe(false);
  });

  it('a check that answers after the builder moved to another project is dropped', async () => {
    const { api, store, vm } = setup();
    api.connected = true;
    api.hold('check');
    vm.setProject('p1');
    vm.setProject('p2');
    api.release('check');
    await flush();
    expect(store.projectId).toBe('p2');
    expect(store.databaseConnected).toBe(true); // p2's own answer (the fake says connected)
    api.connected = false;
    api.hold('check');
    const stale = store.refresh();
    vm.setProject('p3');
    api.release('check');
    await stale;
    await flush();
    expect(store.projectId).toBe('p3');
    expect(store.databaseConnected).toBe(false);
  });

  it('opening the dialog checks again (the assistant may have added tables)', async () => {
    const { api, vm } = setup();
    api.connected = true;
    vm.setProject('p1');
    await flush();
    api.database = connectedCheck({ tables: [table('notes')] });
    await vm.openDialog();
    expect(vm.open).toBe(true);
    expect(api.calls).toEqual(['check p1', 'check p1']);
    expect(vm.tables.map((t) => t.name)).toEqual(['notes']);
    vm.closeDialog();
    expect(vm.open).toBe(false);
  });

  it('a server that cannot be reached (503) says so in plain words, and the facts already known stay', async () => {
    const { api, store, vm } = setup();
    api.connected = true;
    vm.setProject('p1');
    await flush();
    api.fail('check', unavailable());
    await vm.openDialog();
    expect(store.loadError).toBe(SERVER_UNREACHABLE);
    expect(SERVER_UNREACHABLE).toMatch(/^The database server is not reachable right now/);
    expect(vm.connected).toBe(true);
    expect(vm.dataUrl).toBe(DATA_URL);
    await store.refresh();
    expect(store.loadError).toBeNull();
  });
});

describe('DatabaseVm: connecting', () => {
  it('connect: progress while the database is made, then "Database connected" with the URL and key, then the check', async () => {
    const { api, store, toasts, vm } = setup();
    vm.setProject('p1');
    await flush();
    api.hold('provision');
    const connecting = vm.connect();
    expect(vm.phase).toBe('connecting');
    expect(vm.busy).toBe(true);
    await vm.connect(); // a second click while one runs does nothing
    api.release('provision');
    await connecting;
    expect(api.calls).toEqual(['check p1', 'provision p1', 'check p1']);
    expect(vm.phase).toBe('idle');
    expect(store.databaseConnected).toBe(true);
    expect(vm.dataUrl).toBe(DATA_URL);
    expect(vm.anonKey).toBe(ANON_KEY);
    expect(vm.size?.text).toBe('8.0 MB of 100 MB');
    expect(toasts.shown.map((t) => t.title)).toEqual(['Database connected']);
  });

  it('connected even when the check after it fails: the provision’s URL and key show', async () => {
    const { api, store, vm } = setup();
    vm.setProject('p1');
    await flush();
    api.fail('check', unavailable());
    await vm.connect();
    expect(store.databaseConnected).toBe(true);
    expect(vm.error).toBeNull();
    expect(vm.dataUrl).toBe(DATA_URL);
    expect(vm.anonKey).toBe(ANON_KEY);
    expect(vm.size).toBeNull(); // the quota is not known yet
  });

  it('503 on connect: "The database server is not reachable right now", nothing connected', async () => {
    const { api, store, toasts, vm } = setup();
    vm.setProject('p1');
    await flush();
    api.fail('provision', unavailable());
    await vm.connect();
    expect(vm.error).toBe(SERVER_UNREACHABLE);
    expect(store.databaseConnected).toBe(false);
    expect(toasts.shown).toEqual([]);
    expect(vm.phase).toBe('idle');
  });

  it('402 and 409 messages are shown as the server words them', async () => {
    const { api, vm } = setup();
    vm.setProject('p1');
    await flush();
    api.fail('provision', quotaExceeded());
    await vm.connect();
    expect(vm.error).toBe('This project’s database uses 101 MB of its 100 MB. Delete data or upgrade your plan to write more.');
    api.fail('provision', new ApiError('This project’s database is being created. Try again in a moment.', 409, 'DATABASES.PROVISIONING', null));
    await vm.connect();
    expect(vm.error).toBe('This project’s database is being created. Try again in a moment.');
    await vm.connect();
    expect(vm.error).toBeNull();
    expect(vm.connected).toBe(true);
  });

  it('a provision that answers after the builder moved on does not mark the new project connected', async () => {
    const { api, store, toasts, vm } = setup();
    vm.setProject('p1');
    await flush();
    api.hold('provision');
    const connecting = vm.connect();
    api.connected = false;
    vm.setProject('p2');
    api.release('provision');
    await connecting;
    await flush();
    expect(store.projectId).toBe('p2');
    expect(store.check?.connected).toBe(false);
    expect(toasts.shown).toEqual([]);
  });
});

describe('DatabaseVm: the connection and the table browser', () => {
  async function connected(check = connectedCheck(), options: { clipboardFails?: boolean } = {}) {
    const context = setup(options);
    context.api.connected = true;
    context.api.database = check;
    context.vm.setProject('p1');
    await flush();
    return context;
  }

  it('copies the data URL and the anon key, and says when the browser refuses', async () => {
    const { clipboard, toasts, vm } = await connected();
    await vm.copyDataUrl();
    await vm.copyAnonKey();
    expect(clipboard.written).toEqual([DATA_URL, ANON_KEY]);
    expect(toasts.shown.map((t) => t.title)).toEqual(['Data URL copied', 'Anon key copied']);
    const refused = await connected(connectedCheck(), { clipboardFails: true });
    await refused.vm.copyAnonKey();
    expect(refused.toasts.shown.map((t) => t.title)).toEqual(['Could not copy']);
  });

  it('shows no URL that is not http(s), and no empty key', async () => {
    const { vm } = await connected(connectedCheck({ url: 'javascript:alert(1)', anon_key: '' }));
    expect(vm.dataUrl).toBeNull();
    expect(vm.anonKey).toBeNull();
    await vm.copyDataUrl();
    await vm.copyAnonKey();
  });

  it('names the tables with row-level security off, for the warning and the publish dialog', async () => {
    const { store, vm } = await connected(connectedCheck({ tables: [table('todos'), table('legacy', { rls_enabled: false }), table('audit', { rls_enabled: false })] }));
    expect(vm.unsafeTables).toEqual(['legacy', 'audit']);
    expect(store.unsafeTables).toEqual(['legacy', 'audit']);
    expect(vm.tables.map((t) => [t.name, t.rlsEnabled])).toEqual([
      ['todos', true],
      ['legacy', false],
      ['audit', false],
    ]);
  });

  it('shows the first table’s schema, or the chosen one while it exists', async () => {
    const { api, vm } = await connected(connectedCheck({ tables: [table('todos'), table('notes', { columns: [{ name: 'body', type: 'text', nullable: false }] })] }));
    expect(vm.currentTable?.name).toBe('todos');
    vm.selectTable('notes');
    expect(vm.currentTable?.columns).toEqual([{ name: 'body', type: 'text', nullable: false }]);
    api.database = connectedCheck({ tables: [table('todos')] });
    await vm.openDialog();
    expect(vm.currentTable?.name).toBe('todos');
  });

  it('over the quota is marked, the bar never passes 100 %', async () => {
    const { vm } = await connected(connectedCheck({ size_bytes: 150 * MB, quota_bytes: 100 * MB, over_quota: true }));
    expect(vm.size).toEqual({ text: '150 MB of 100 MB', percent: 100, over: true });
  });
});

describe('DatabaseVm: disconnecting', () => {
  async function connected() {
    const context = setup();
    context.api.connected = true;
    context.api.database = connectedCheck({ tables: [table('todos')] });
    context.vm.setProject('p1');
    await flush();
    return context;
  }

  it('asks first; Cancel changes nothing', async () => {
    const { api, vm } = await connected();
    vm.askDisconnect();
    expect(vm.confirmingDisconnect).toBe(true);
    vm.cancelDisconnect();
    expect(vm.confirmingDisconnect).toBe(false);
    expect(api.calls).toEqual(['check p1']);
    expect(vm.connected).toBe(true);
  });

  it('"Keep the data" detaches (deleteFromProvider=false); connecting again brings the same database back', async () => {
    const { api, store, toasts, vm } = await connected();
    vm.askDisconnect();
    await vm.disconnect(false);
    expect(api.calls).toEqual(['check p1', 'disconnect p1 false']);
    expect(store.databaseConnected).toBe(false);
    expect(vm.confirmingDisconnect).toBe(false);
    expect(vm.tables).toEqual([]);
    expect(toasts.shown.at(-1)).toMatchObject({ title: 'Database disconnected' });
    await vm.connect();
    expect(vm.dataUrl).toBe(DATA_URL);
    expect(vm.tables.map((t) => t.name)).toEqual(['todos']);
  });

  it('"Delete the data" drops it (deleteFromProvider=true); connecting again makes a new database', async () => {
    const { api, toasts, vm } = await connected();
    vm.askDisconnect();
    await vm.disconnect(true);
    expect(api.calls).toEqual(['check p1', 'disconnect p1 true']);
    expect(vm.connected).toBe(false);
    expect(toasts.shown.at(-1)).toMatchObject({ title: 'Database deleted' });
    await vm.connect();
    expect(vm.dataUrl).not.toBe(DATA_URL);
    expect(vm.anonKey).not.toBe(ANON_KEY);
    expect(vm.tables).toEqual([]);
  });

  it('a failed disconnect (503) keeps the database and the question, in plain words', async () => {
    const { api, vm } = await connected();
    vm.askDisconnect();
    api.hold('disconnect');
    api.fail('disconnect', unavailable());
    const disconnecting = vm.disconnect(true);
    expect(vm.phase).toBe('disconnecting');
    vm.cancelDisconnect(); // cannot be cancelled while it runs
    expect(vm.confirmingDisconnect).toBe(true);
    api.release('disconnect');
    await disconnecting;
    expect(vm.error).toBe(SERVER_UNREACHABLE);
    expect(vm.connected).toBe(true);
    expect(vm.confirmingDisconnect).toBe(true);
  });

  it('nothing to disconnect when not connected', async () => {
    const { api, vm } = setup();
    vm.setProject('p1');
    await flush();
    await vm.disconnect(true);
    expect(api.calls).toEqual(['check p1']);
  });
});

describe('database display words', () => {
  it('row estimates are estimates', () => {
    expect(rowsText(0)).toBe('no rows yet');
    expect(rowsText(-1)).toBe('no rows yet');
    expect(rowsText(Number.NaN)).toBe('no rows yet');
    expect(rowsText(1)).toBe('about 1 row');
    expect(rowsText(1_000_000)).toBe('about 1,000,000 rows');
  });

  it('size against the quota; an unknown or zero quota shows none', () => {
    expect(sizeUse(0, 100 * MB, false)).toEqual({ text: '0 B of 100 MB', percent: 0, over: false });
    expect(sizeUse(5, undefined, false)).toBeNull();
    expect(sizeUse(5, 0, false)).toBeNull();
    expect(sizeUse(50 * MB, 100 * MB, true)?.over).toBe(true);
  });
});


import { beforeEach, describe, expect, it } from '@jest/globals';
import { createProfile } from '../profiles/profile.entity.js';
import { OwnedProjects } from '../projects/owned-projects.js';
import { newProject } from '../projects/project.entity.js';
import { FixedClock } from '../testing/fixed-clock.js';
import { InMemoryDatabaseProvisioner, InMemoryProjectDatabaseRepository } from '../testing/in-memory-databases.js';
import { InMemoryProfileRepository } from '../testing/in-memory-profile-repository.js';
import { InMemoryProjectRepository } from '../testing/in-memory-project-repository.js';
import { SeededRandom } from '../testing/scripted-random.js';
import { SequentialIds } from '../testing/sequential-ids.js';
import { databaseProvisionerContract } from '../testing/contracts/database-provisioner.contract.js';
import { projectDatabaseRepositoryContract } from '../testing/contracts/project-database-repository.contract.js';
import { DEFAULT_DATABASE_PLAN_LIMITS, databaseLimitsFor, overQuota } from './database-limits.js';
import { databaseNames, generateDatabaseRef, isDatabaseRef } from './database-ref.js';
import { CheckDatabase } from './use-cases/check-database.use-case.js';
import { DeleteDatabase } from './use-cases/delete-database.use-case.js';
import { DropProjectDatabase } from './use-cases/drop-project-database.use-case.js';
import { GetDatabaseConnection } from './use-cases/get-database-connection.use-case.js';
import { ProvisionDatabase, STALE_PROVISIONING_MS } from './use-cases/provision-database.use-case.js';

databaseProvisionerContract('in-memory', async () => {
  const provisioner = new InMemoryDatabaseProvisioner();
  const random = new SeededRandom(7);
  return {
    provisioner,
    newRef: () => generateDatabaseRef(random),
    createTable: async (ref, name) => provisioner.addTable(ref, name, [{ name: 'id', type: 'uuid', nullable: false }, { name: 'title', type: 'text', nullable: false }]),
    insertRows: async (ref, table, rows) => provisioner.addRows(ref, table, rows.map((r) => ({ id: r.id, title: r.title }))),
  };
});

projectDatabaseRepositoryContract('in-memory', async () => {
  let n = 0;
  return { databases: new InMemoryProjectDatabaseRepository(), newProject: async () => ({ projectId: `p-${(n += 1)}`, ownerId: 'u-1' }) };
});

describe('refs and limits', () => {
  it('generates 20-character [a-z0-9] refs that name the database and roles', () => {
    const random = new SeededRandom(1);
    const refs = new Set(Array.from({ length: 500 }, () => generateDatabaseRef(random)));
    expect(refs.size).toBe(500);
    for (const ref of refs) expect(isDatabaseRef(ref)).toBe(true);
    const [ref] = [...refs];
    expect(databaseNames(ref!)).toEqual({ database: `kiln_app_${ref}`, authenticator: `kiln_app_${ref}_authenticator`, owner: `kiln_app_${ref}_owner` });
    expect(() => databaseNames('"; drop role x; --aa')).toThrow();
  });

  it('gives the free plan the free limits and any paid plan the paid ones', () => {
    expect(databaseLimitsFor('free', DEFAULT_DATABASE_PLAN_LIMITS)).toBe(DEFAULT_DATABASE_PLAN_LIMITS.free);
    expect(databaseLimitsFor('pro_annual', DEFAULT_DATABASE_PLAN_LIMITS)).toBe(DEFAULT_DATABASE_PLAN_LIMITS.paid);
    expect(overQuota(100 * 1024 * 1024, DEFAULT_DATABASE_PLAN_LIMITS.free)).toBe(false);
    expect(overQuota(100 * 1024 * 1024 + 1, DEFAULT_DATABASE_PLAN_LIMITS.free)).toBe(true);
  });
});

describe('database use cases', () => {
  let clock: FixedClock;
  let projects: InMemoryProjectRepository;
  let profiles: InMemoryProfileRepository;
  let records: InMemoryProjectDatabaseRepository;
  let provisioner: InMemoryDatabaseProvisioner;
  let provision: ProvisionDatabase;
  let check: CheckDatabase;
  let remove: DeleteDatabase;
  let connection: GetDatabaseConnection;

  beforeEach(async () => {
    clock = new FixedClock();
    projects = new InMemoryProjectRepository();
    profiles = new InMemoryProfileRepository();
    records = new InMemoryProjectDatabaseRepository();
    provisioner = new InMemoryDatabaseProvisioner();
    const owned = new OwnedProjects(projects, clock);
    provision = new ProvisionDatabase(owned, profiles, records, provisioner, DEFAULT_DATABASE_PLAN_LIMITS, new SequentialIds('db'), new SeededRandom(3), clock);
    check = new CheckDatabase(owned, profiles, records, provisioner, DEFAULT_DATABASE_PLAN_LIMITS);
    remove = new DeleteDatabase(owned, records, provisioner, clock);
    connection = new GetDatabaseConnection(records, projects);
    await projects.insert(newProject({ id: 'p1', creatorId: 'alice', name: 'Todo' }, clock.now()));
    await profiles.insertIfAbsent({ ...createProfile({ id: 'alice', email: 'a@example.com', referralCode: 'AAA' }, clock.now()), subscriptionPlan: 'pro_monthly' });
  });

  it('provisions once: a second call returns the same database, with the plan’s limits', async () => {
    const first = await provision.execute('alice', 'p1');
    if (!first.ok) throw new Error(first.error.code);
    expect(first.value).toMatchObject({ projectId: 'p1', ownerId: 'alice', status: 'ready', provider: 'local' });
    expect(isDatabaseRef(first.value.ref)).toBe(true);
    expect(first.value.jwtSecret).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(provisioner.limitsOf(first.value.ref)).toEqual(DEFAULT_DATABASE_PLAN_LIMITS.paid);
    const second = await provision.execute('alice', 'p1');
    expect(second).toEqual(first);
  });

  it('answers not found for another user’s project and a deleted one', async () => {
    expect(await provision.execute('mallory', 'p1')).toMatchObject({ ok: false, error: { code: 'PROJECTS.NOT_FOUND' } });
    expect(await check.execute('mallory', 'p1')).toMatchObject({ ok: false, error: { code: 'PROJECTS.NOT_FOUND' } });
    expect(await remove.execute('mallory', 'p1', true)).toMatchObject({ ok: false, error: { code: 'PROJECTS.NOT_FOUND' } });
    expect(await records.findByProject('p1')).toBeNull();
  });

  it('releases its claim when the server is down, so the next try starts clean', async () => {
    provisioner.down = true;
    expect(await provision.execute('alice', 'p1')).toMatchObject({ ok: false, error: { code: 'DATABASES.SERVER_UNAVAILABLE' } });
    expect(await records.findByProject('p1')).toBeNull();
    provisioner.down = false;
    expect((await provision.execute('alice', 'p1')).ok).toBe(true);
  });

  it('makes a concurrent second call wait on a fresh claim and takes over a stale one', async () => {
    const claim = { id: 'x', projectId: 'p1', ownerId: 'alice', ref: 'abcdefghij0123456789', provider: 'local' as const, status: 'provisioning' as const, connection: null, jwtSecret: 's'.repeat(48), createdAt: clock.now(), updatedAt: clock.now() };
    await records.insert(claim);
    expect(await provision.execute('alice', 'p1')).toMatchObject({ ok: false, error: { code: 'DATABASES.PROVISIONING' } });
    clock.advance(STALE_PROVISIONING_MS + 1);
    const taken = await provision.execute('alice', 'p1');
    expect(taken).toMatchObject({ ok: true, value: { ref: claim.ref, status: 'ready' } });
  });

  it('checks: not connected, then tables with RLS, size and quota', async () => {
    expect(await check.execute('alice', 'p1')).toEqual({ ok: true, value: { connected: false } });
    const db = await provision.execute('alice', 'p1');
    if (!db.ok) throw new Error('provision');
    provisioner.addTable(db.value.ref, 'todos');
    provisioner.setSize(db.value.ref, 2_000 * 1024 * 1024);
    const result = await check.execute('alice', 'p1');
    if (!result.ok || !result.value.connected) throw new Error('check');
    expect(result.value.inspection.tables.map((t) => [t.name, t.rlsEnabled])).toEqual([['todos', true]]);
    expect(result.value.overQuota).toBe(true);
    provisioner.down = true;
    expect(await check.execute('alice', 'p1')).toMatchObject({ ok: false, error: { code: 'DATABASES.SERVER_UNAVAILABLE' } });
  });

  it('detaches with deleteFromProvider=false (data kept, reattached by provision) and drops with true', async () => {
    const db = await provision.execute('alice', 'p1');
    if (!db.ok) throw new Error('provision');
    const { ref } = db.value;
    provisioner.addTable(ref, 'notes');
    expect(await remove.execute('alice', 'p1', false)).toEqual({ ok: true, value: { ref, droppedFromProvider: false } });
    expect(provisioner.has(ref)).toBe(true);
    expect(await connection.byRef(ref)).toMatchObject({ ok: false, error: { code: 'DATABASES.NOT_CONNECTED' } });
    expect(await check.execute('alice', 'p1')).toEqual({ ok: true, value: { connected: false } });
    const again = await provision.execute('alice', 'p1');
    expect(again).toMatchObject({ ok: true, value: { ref, jwtSecret: db.value.jwtSecret, status: 'ready' } });
    expect((await provisioner.inspect(ref))?.tables.map((t) => t.name)).toEqual(['notes']);
    expect(await remove.execute('alice', 'p1', true)).toEqual({ ok: true, value: { ref, droppedFromProvider: true } });
    expect(provisioner.has(ref)).toBe(false);
    expect(await records.findByProject('p1')).toBeNull();
    expect(await remove.execute('alice', 'p1', true)).toMatchObject({ ok: false, error: { code: 'DATABASES.NOT_CONNECTED' } });
  });

  it('keeps the record when the drop fails, so nothing is orphaned', async () => {
    const db = await provision.execute('alice', 'p1');
    if (!db.ok) throw new Error('provision');
    provisioner.down = true;
    expect(await remove.execute('alice', 'p1', true)).toMatchObject({ ok: false, error: { code: 'DATABASES.SERVER_UNAVAILABLE' } });
    expect((await records.findByProject('p1'))?.status).toBe('ready');
  });

  it('gives the data API the connection of a ready database of a live project only', async () => {
    expect(await connection.byRef('not a ref')).toMatchObject({ ok: false });
    const db = await provision.execute('alice', 'p1');
    if (!db.ok) throw new Error('provision');
    const facts = await connection.byRef(db.value.ref);
    expect(facts).toMatchObject({ ok: true, value: { projectId: 'p1', jwtSecret: db.value.jwtSecret, connection: { user: `kiln_app_${db.value.ref}_authenticator` } } });
    await projects.markDeleted('p1', clock.now());
    expect(await connection.byRef(db.value.ref)).toMatchObject({ ok: false, error: { code: 'DATABASES.NOT_CONNECTED' } });
  });

  it('drops the database of a deleted project with its record; the provider down keeps both; none is nothing to do', async () => {
    const drop = new DropProjectDatabase(records, provisioner);
    expect(await drop.dropFor('p1')).toEqual({ ok: true, value: undefined });
    const db = await provision.execute('alice', 'p1');
    if (!db.ok) throw new Error('provision');
    provisioner.down = true;
    expect(await drop.dropFor('p1')).toMatchObject({ ok: false, error: { code: 'DATABASES.SERVER_UNAVAILABLE' } });
    expect(await records.findByProject('p1')).not.toBeNull();
    provisioner.down = false;
    expect((await drop.dropFor('p1')).ok).toBe(true);
    expect(provisioner.has(db.value.ref)).toBe(false);
    expect(await records.findByProject('p1')).toBeNull();
    expect((await drop.dropFor('p1')).ok).toBe(true);
  });
});

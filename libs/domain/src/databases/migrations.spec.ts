import { beforeEach, describe, expect, it } from '@jest/globals';
import { createProfile } from '../profiles/profile.entity.js';
import { OwnedProjects } from '../projects/owned-projects.js';
import { newProject } from '../projects/project.entity.js';
import { FixedClock } from '../testing/fixed-clock.js';
import { InMemoryDatabaseProvisioner, InMemoryProjectDatabaseRepository } from '../testing/in-memory-databases.js';
import { InMemoryProfileRepository } from '../testing/in-memory-profile-repository.js';
import { InMemoryProjectRepository } from '../testing/in-memory-project-repository.js';
import { InMemorySandboxHost } from '../testing/in-memory-sandbox-host.js';
import { InMemorySchemaMigrator } from '../testing/in-memory-schema-migrator.js';
import { SeededRandom } from '../testing/scripted-random.js';
import { SequentialIds } from '../testing/sequential-ids.js';
import { InProcessTurnLock } from '../ai/engine/project-turn-lock.js';
import { DEFAULT_DATABASE_PLAN_LIMITS } from './database-limits.js';
import { ApplyMigrations, TurnMigrationsOfProject, isMigrationPath, nextMigrationPath } from './use-cases/apply-migrations.use-case.js';
import { ProvisionDatabase } from './use-cases/provision-database.use-case.js';

describe('ApplyMigrations', () => {
  let clock: FixedClock;
  let sandbox: InMemorySandboxHost;
  let provisioner: InMemoryDatabaseProvisioner;
  let migrator: InMemorySchemaMigrator;
  let records: InMemoryProjectDatabaseRepository;
  let migrations: ApplyMigrations;
  let provision: ProvisionDatabase;
  let owned: OwnedProjects;
  let profiles: InMemoryProfileRepository;

  beforeEach(async () => {
    clock = new FixedClock();
    const projects = new InMemoryProjectRepository();
    profiles = new InMemoryProfileRepository();
    records = new InMemoryProjectDatabaseRepository();
    provisioner = new InMemoryDatabaseProvisioner();
    migrator = new InMemorySchemaMigrator(provisioner);
    sandbox = new InMemorySandboxHost(clock);
    owned = new OwnedProjects(projects, clock);
    provision = new ProvisionDatabase(owned, profiles, records, provisioner, DEFAULT_DATABASE_PLAN_LIMITS, new SequentialIds('db'), new SeededRandom(3), clock);
    migrations = new ApplyMigrations(owned, profiles, records, sandbox, migrator, DEFAULT_DATABASE_PLAN_LIMITS);
    await projects.insert(newProject({ id: 'p1', creatorId: 'alice', name: 'Todo' }, clock.now()));
    await profiles.insertIfAbsent(createProfile({ id: 'alice', email: 'a@example.com', referralCode: 'AAA' }, clock.now()));
    await sandbox.ensure('p1');
  });

  const ready = async () => {
    const made = await provision.execute('alice', 'p1');
    if (!made.ok) throw new Error(made.error.code);
    return made.value.ref;
  };

  it('is NOT_CONNECTED for the route and nothing for a turn without a database; 404 for another user', async () => {
    expect(await migrations.execute('alice', 'p1')).toMatchObject({ ok: false, error: { code: 'DATABASES.NOT_CONNECTED' } });
    expect(await migrations.forProject('p1')).toBeNull();
    expect(await new TurnMigrationsOfProject(migrations).apply('p1')).toEqual([]);
    expect(await migrations.execute('mallory', 'p1')).toMatchObject({ ok: false, error: { code: 'PROJECTS.NOT_FOUND' } });
  });

  it('reads supabase/migrations/*.sql by name with the plan’s statement timeout; nothing when there is no folder', async () => {
    const ref = await ready();
    expect(await migrations.execute('alice', 'p1')).toEqual({ ok: true, value: { folder: null, applied: [], kept: [], message: 'The database is up to date.' } });
    await sandbox.writeFile('p1', 'supabase/migrations/10_b.sql', 'create table b (id int);');
    await sandbox.writeFile('p1', 'supabase/migrations/02_a.sql', 'create table a (id int);');
    await sandbox.writeFile('p1', 'supabase/migrations/README.md', 'not sql');
    await sandbox.writeFile('p1', 'db/migrations/01_ignored.sql', 'create table ignored (id int);');
    const result = await migrations.execute('alice', 'p1');
    expect(result).toMatchObject({ ok: true, value: { folder: 'supabase/migrations', applied: ['02_a.sql', '10_b.sql'], kept: [] } });
    expect((await provisioner.inspect(ref))?.tables.map((t) => t.name)).toEqual(['a', 'b']);
    expect(migrator.runs.at(-1)).toEqual({ ref, options: { statementTimeoutMs: DEFAULT_DATABASE_PLAN_LIMITS.free.statementTimeoutMs } });
  });

  it('falls back to db/migrations', async () => {
    await ready();
    await sandbox.writeFile('p1', 'db/migrations/001.sql', 'create table t (id int);');
    expect(await migrations.execute('alice', 'p1')).toMatchObject({ ok: true, value: { folder: 'db/migrations', applied: ['001.sql'] } });
  });

  it('answers a failure with the file’s project path and line, a changed file as MIGRATION_CHANGED, removed files as kept', async () => {
    await ready();
    await sandbox.writeFile('p1', 'supabase/migrations/001.sql', 'create table t (id int);');
    expect((await migrations.execute('alice', 'p1')).ok).toBe(true);
    await sandbox.writeFile('p1', 'supabase/migrations/002.sql', 'create table u (id int);\nfail;');
    const failed = await migrations.execute('alice', 'p1');
    expect(failed).toMatchObject({ ok: false, error: { code: 'DATABASES.MIGRATION_FAILED', file: 'supabase/migrations/002.sql', line: 2 } });
    expect(!failed.ok && failed.error.message).toBe('The migration supabase/migrations/002.sql failed at line 2: syntax error at or near "fail". Nothing of this run was applied.');
    expect(await new TurnMigrationsOfProject(migrations).apply('p1')).toEqual([
      { message: expect.stringContaining('failed at line 2'), file: 'supabase/migrations/002.sql', line: 2, column: 1, severity: 'error' },
    ]);
    await sandbox.deleteFile('p1', 'supabase/migrations/002.sql');
    await sandbox.writeFile('p1', 'supabase/migrations/001.sql', 'create table t (id bigint);');
    expect(await migrations.execute('alice', 'p1')).toMatchObject({ ok: false, error: { code: 'DATABASES.MIGRATION_CHANGED', file: 'supabase/migrations/001.sql' } });
    await sandbox.deleteFile('p1', 'supabase/migrations/001.sql');
    const kept = await migrations.execute('alice', 'p1');
    expect(kept).toMatchObject({ ok: true, value: { applied: [], kept: ['001.sql'] } });
    expect(kept.ok && kept.value.message).toMatch(/001\.sql are no longer in the project, but what they created was kept/);
  });

  it('answers SERVER_UNAVAILABLE when the migrator is down (a turn sees no error)', async () => {
    await ready();
    await sandbox.writeFile('p1', 'supabase/migrations/001.sql', 'create table t (id int);');
    migrator.down = true;
    expect(await migrations.execute('alice', 'p1')).toMatchObject({ ok: false, error: { code: 'DATABASES.SERVER_UNAVAILABLE' } });
    expect(await new TurnMigrationsOfProject(migrations).apply('p1')).toEqual([]);
  });

  it('the route answers PROJECTS.BUSY while an AI turn holds the project, and runs once it is free', async () => {
    await ready();
    await sandbox.writeFile('p1', 'supabase/migrations/001.sql', 'create table t (id int);');
    const lock = new InProcessTurnLock();
    const locked = new ApplyMigrations(owned, profiles, records, sandbox, migrator, DEFAULT_DATABASE_PLAN_LIMITS, lock);
    let release: () => void = () => undefined;
    const turn = lock.run('p1', () => new Promise<void>((resolve) => (release = resolve)));
    expect(await locked.execute('alice', 'p1')).toMatchObject({ ok: false, error: { code: 'PROJECTS.BUSY' } });
    expect(migrator.runs).toEqual([]);
    release();
    await turn;
    expect(await locked.execute('alice', 'p1')).toMatchObject({ ok: true, value: { applied: ['001.sql'] } });
  });

  it('knows a migration path', () => {
    expect(isMigrationPath('supabase/migrations/001.sql')).toBe(true);
    expect(isMigrationPath('./db/migrations/x.sql')).toBe(true);
    expect(isMigrationPath('supabase/migrations/notes.md')).toBe(false);
    expect(isMigrationPath('src/supabase/migrations/001.sql')).toBe(false);
  });

  it('names the next migration: one past the highest number in the migration folder, four digits', () => {
    expect(nextMigrationPath(['src/App.tsx'], 'todos')).toBe('supabase/migrations/0001_todos.sql');
    expect(nextMigrationPath(['supabase/migrations/0001_todos.sql', 'supabase/migrations/0002_tags.sql', 'supabase/migrations/README.md'], 'notes')).toBe('supabase/migrations/0003_notes.sql');
    expect(nextMigrationPath(['supabase/migrations/007_x.sql', './supabase/migrations/0012_y.sql', 'supabase/migrations/seed.sql'], 'z')).toBe('supabase/migrations/0013_z.sql');
    expect(nextMigrationPath(['db/migrations/0004_a.sql', 'supabase/config.toml'], 'b')).toBe('db/migrations/0005_b.sql');
  });
});

import { describe, expect, it } from '@jest/globals';
import { DEFAULT_DATABASE_PLAN_LIMITS } from '../../databases/database-limits.js';
import { ApplyMigrations, TurnMigrationsOfProject } from '../../databases/use-cases/apply-migrations.use-case.js';
import { OwnedProjects } from '../../projects/owned-projects.js';
import { InMemoryDatabaseProvisioner, InMemoryProjectDatabaseRepository } from '../../testing/in-memory-databases.js';
import { InMemorySchemaMigrator } from '../../testing/in-memory-schema-migrator.js';
import { codeError, collect, createTurnTestKit } from './testing/turn-test-kit.js';

const REF = 'abcdefghij0123456789';
const MIGRATION = 'supabase/migrations/001_todos.sql';

/** A turn kit whose project has a ready database, with the real ApplyMigrations over the in-memory migrator. */
async function withDatabase() {
  const provisioner = new InMemoryDatabaseProvisioner();
  const migrator = new InMemorySchemaMigrator(provisioner);
  const records = new InMemoryProjectDatabaseRepository();
  const t = await createTurnTestKit({
    migrations: (kit, host) =>
      new TurnMigrationsOfProject(new ApplyMigrations(new OwnedProjects(kit.projects, kit.clock), kit.profiles, records, host, migrator, DEFAULT_DATABASE_PLAN_LIMITS)),
  });
  const connection = await provisioner.provision(REF, DEFAULT_DATABASE_PLAN_LIMITS.free);
  const now = t.kit.clock.now();
  await records.insert({ id: 'db-1', projectId: t.projectId, ownerId: t.userId, ref: REF, provider: 'local', status: 'ready', connection, jwtSecret: 'x'.repeat(48), createdAt: now, updatedAt: now });
  t.scriptErrors([]);
  return { t, provisioner, migrator };
}

describe('RunTurn with a database: migrations at the check', () => {
  it('applies a migration the turn wrote once the code checks clean, and keeps the turn', async () => {
    const { t, provisioner } = await withDatabase();
    t.assistant.answers.push({ operations: [{ type: 'write_file', path: MIGRATION, content: 'create table todos (id int);\n' }] });
    const started = await t.runTurn.execute(t.input('Add a todos table'));
    if (!started.ok) throw new Error('not started');
    const events = await collect(started.value);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'kept' });
    expect((await provisioner.inspect(REF))?.tables.map((t) => t.name)).toEqual(['todos']);
  });

  it('a failing migration is an error of the check: the repair round sees it with its file and line, and the fix is applied', async () => {
    const { t, provisioner } = await withDatabase();
    t.assistant.answers.push(
      { operations: [{ type: 'write_file', path: MIGRATION, content: 'create table todos (id int);\nfail here;\n' }] },
      (input) => {
        expect(input.previousErrors).toEqual([expect.objectContaining({ file: MIGRATION, line: 2, severity: 'error' })]);
        return { operations: [{ type: 'write_file', path: MIGRATION, content: 'create table todos (id int);\n' }] };
      },
    );
    const started = await t.runTurn.execute(t.input('Add a todos table'));
    if (!started.ok) throw new Error('not started');
    const events = await collect(started.value);
    expect(events.filter((e) => e.type === 'errors').map((e) => e.type === 'errors' && e.scan.errorCount)).toEqual([1, 0]);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'kept' });
    expect((await provisioner.inspect(REF))?.tables.map((t) => t.name)).toEqual(['todos']);
  });

  it('a migration still failing after the repair rounds reverts the turn, and nothing reached the database', async () => {
    const { t, provisioner } = await withDatabase();
    const bad = { operations: [{ type: 'write_file' as const, path: MIGRATION, content: 'create table todos (id int);\nfail;\n' }] };
    t.assistant.answers.push(bad, bad, bad);
    const started = await t.runTurn.execute(t.input('Add a todos table'));
    if (!started.ok) throw new Error('not started');
    const events = await collect(started.value);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'reverted' });
    expect((await t.files())[MIGRATION]).toBeUndefined();
    expect((await provisioner.inspect(REF))?.tables).toEqual([]);
  });

  it('does not run migrations when the turn did not touch the folder, nor when the code is broken', async () => {
    const { t, migrator } = await withDatabase();
    t.assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/x.ts', content: 'export const x = 1;\n' }] });
    const started = await t.runTurn.execute(t.input('Add x'));
    if (!started.ok) throw new Error('not started');
    await collect(started.value);
    expect(migrator.runs).toEqual([]);

    // Broken code with a migration: the migration waits for code that checks clean (never applied, then reverted).
    const broken = codeError("Cannot find name 'Chorse'.");
    const breaking = () => {
      t.scriptErrors([broken]);
      return { operations: [{ type: 'write_file' as const, path: MIGRATION, content: 'create table todos (id int);\n' }] };
    };
    t.assistant.answers.push(breaking, breaking, breaking);
    const second = await t.runTurn.execute(t.input('Add todos'));
    if (!second.ok) throw new Error('not started');
    expect((await collect(second.value)).at(-1)).toMatchObject({ type: 'done', status: 'reverted' });
    expect(migrator.runs).toEqual([]);
  });
});

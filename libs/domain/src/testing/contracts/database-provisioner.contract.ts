import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DatabaseLimits } from '../../databases/database-limits.js';
import type { DatabaseProvisioner } from '../../databases/database-provisioner.port.js';
import { SAMPLE_ROWS_MAX, SAMPLE_VALUE_MAX_CHARS } from '../../databases/table-sample.js';

export interface DatabaseProvisionerHarness {
  readonly provisioner: DatabaseProvisioner;
  /** A fresh ref no other test uses. */
  newRef(): string;
  /**
   * Creates table `name` (columns `id uuid primary key`, `title text not null`) in public the
   * way a migration does (as the owner role), or the adapter's equivalent.
   */
  createTable(ref: string, name: string): Promise<void>;
  /** Inserts rows (id, title) into a table createTable made, the way the app's users would. */
  insertRows(ref: string, table: string, rows: readonly { readonly id: string; readonly title: string }[]): Promise<void>;
  close?(): Promise<void>;
}

const limits: DatabaseLimits = { sizeMb: 50, connections: 3, statementTimeoutMs: 2_000 };

/**
 * The DatabaseProvisioner contract: provision names the database and the authenticator after the
 * ref and is idempotent; inspect sees tables (RLS on by default) and size; drop removes it all and
 * is idempotent; sampleRows reads a few rows of a table of public, capped and cut, and a table
 * name that is unknown or hostile reads nothing; anything that is not a ref is refused before
 * reaching the provider.
 */
export function databaseProvisionerContract(name: string, makeHarness: () => Promise<DatabaseProvisionerHarness>): void {
  describe(`DatabaseProvisioner contract: ${name}`, () => {
    let h: DatabaseProvisionerHarness;
    const made: string[] = [];
    const fresh = () => {
      const ref = h.newRef();
      made.push(ref);
      return ref;
    };

    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      for (const ref of made) await h.provisioner.drop(ref).catch(() => undefined);
      await h.close?.();
    });

    it('provisions a database named after the ref with an authenticator login, and again idempotently', async () => {
      const ref = fresh();
      const first = await h.provisioner.provision(ref, limits);
      expect(first.user).toBe(`kiln_app_${ref}_authenticator`);
      expect(first.password.length).toBeGreaterThanOrEqual(16);
      expect(first.host).not.toBe('');
      expect(first.port).toBeGreaterThan(0);
      const again = await h.provisioner.provision(ref, limits);
      expect(again.user).toBe(first.user);
      expect(again.database).toBe(first.database);
      const inspection = await h.provisioner.inspect(ref);
      expect(inspection?.tables).toEqual([]);
      expect(inspection?.sizeBytes).toBeGreaterThan(0);
    });

    it('inspects tables with their columns and row-level security on', async () => {
      const ref = fresh();
      await h.provisioner.provision(ref, limits);
      await h.createTable(ref, 'todos');
      const inspection = await h.provisioner.inspect(ref);
      expect(inspection?.tables).toHaveLength(1);
      const table = inspection!.tables[0]!;
      expect(table).toMatchObject({ schema: 'public', name: 'todos', rlsEnabled: true });
      expect(table.columns.map((c) => c.name)).toEqual(['id', 'title']);
      expect(table.columns[1]).toMatchObject({ type: 'text', nullable: false });
      expect(table.rowEstimate).toBeGreaterThanOrEqual(0);
    });

    it('keeps the data of a second provision (a retry never drops what exists)', async () => {
      const ref = fresh();
      await h.provisioner.provision(ref, limits);
      await h.createTable(ref, 'notes');
      await h.provisioner.provision(ref, { ...limits, connections: 5 });
      expect((await h.provisioner.inspect(ref))?.tables.map((t) => t.name)).toEqual(['notes']);
    });

    it('upgrades an existing database to the current setup, keeping its tables and rows; an unknown one is false', async () => {
      const ref = fresh();
      await h.provisioner.provision(ref, limits);
      await h.createTable(ref, 'kept');
      await h.insertRows(ref, 'kept', [{ id: '00000000-0000-4000-8000-000000000001', title: 'still here' }]);
      expect(await h.provisioner.upgrade(ref)).toBe(true);
      expect(await h.provisioner.upgrade(ref)).toBe(true); // current already: a check only
      expect((await h.provisioner.inspect(ref))?.tables.map((t) => t.name)).toContain('kept');
      expect(await h.provisioner.sampleRows(ref, 'kept', 5)).toEqual([{ id: '00000000-0000-4000-8000-000000000001', title: 'still here' }]);
      expect(await h.provisioner.upgrade(h.newRef())).toBe(false);
    });

    it('drops a database, idempotently; an unknown ref inspects as null', async () => {
      const ref = fresh();
      await h.provisioner.provision(ref, limits);
      await h.provisioner.drop(ref);
      expect(await h.provisioner.inspect(ref)).toBeNull();
      await expect(h.provisioner.drop(ref)).resolves.toBeUndefined();
      expect(await h.provisioner.inspect(h.newRef())).toBeNull();
    });

    const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

    it('samples a few rows of a table of public: as many as asked, at most SAMPLE_ROWS_MAX, long values cut', async () => {
      const ref = fresh();
      await h.provisioner.provision(ref, limits);
      await h.createTable(ref, 'todos');
      await h.insertRows(ref, 'todos', Array.from({ length: 7 }, (_, i) => ({ id: uuid(i + 1), title: i === 0 ? 'x'.repeat(1_000) : `todo ${i + 1}` })));
      const two = await h.provisioner.sampleRows(ref, 'todos', 2);
      expect(two).toHaveLength(2);
      expect(Object.keys(two![0]!)).toEqual(['id', 'title']);
      expect((await h.provisioner.sampleRows(ref, 'todos', 50))?.length).toBe(SAMPLE_ROWS_MAX);
      const all = (await h.provisioner.sampleRows(ref, 'todos', SAMPLE_ROWS_MAX))!;
      const titles = all.map((r) => r['title']);
      for (const title of titles) expect(typeof title === 'string' && title.length <= SAMPLE_VALUE_MAX_CHARS + 1).toBe(true);
      // A fresh table reads in insertion order: the long title (the first row) is in the sample.
      expect(titles).toContain(`${'x'.repeat(SAMPLE_VALUE_MAX_CHARS)}…`);
      await h.createTable(ref, 'empty');
      expect(await h.provisioner.sampleRows(ref, 'empty', 3)).toEqual([]);
    });

    it('reads nothing of an unknown or hostile table name, and SQL in the name never runs', async () => {
      const ref = fresh();
      await h.provisioner.provision(ref, limits);
      await h.createTable(ref, 'todos');
      await h.insertRows(ref, 'todos', [{ id: uuid(1), title: 'keep me' }]);
      for (const name of ['nope', 'x"; drop table todos; --', 'todos"; drop table todos; --', 'todos; drop table todos', 'public.todos', 'pg_class', 'pg_catalog.pg_roles', 'TODOS']) {
        expect(await h.provisioner.sampleRows(ref, name, 3)).toBeNull();
      }
      expect((await h.provisioner.inspect(ref))?.tables.map((t) => t.name)).toEqual(['todos']);
      expect(await h.provisioner.sampleRows(ref, 'todos', 3)).toEqual([{ id: uuid(1), title: 'keep me' }]);
      expect(await h.provisioner.sampleRows(h.newRef(), 'todos', 3)).toBeNull();
      await expect(h.provisioner.sampleRows('x; drop database test', 'todos', 3)).rejects.toThrow();
    });

    it('refuses anything that is not a ref before reaching the provider', async () => {
      for (const bad of ['', 'ABCDEFGHIJKLMNOPQRST', 'abc', 'aaaaaaaaaaaaaaaaaaa"', 'x; drop database test', 'aaaaaaaaaaaaaaaaaaaa\n']) {
        await expect(h.provisioner.provision(bad, limits)).rejects.toThrow();
        await expect(h.provisioner.drop(bad)).rejects.toThrow();
        await expect(h.provisioner.inspect(bad)).rejects.toThrow();
      }
    });
  });
}

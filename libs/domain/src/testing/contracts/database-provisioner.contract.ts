import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DatabaseLimits } from '../../databases/database-limits.js';
import type { DatabaseProvisioner } from '../../databases/database-provisioner.port.js';

export interface DatabaseProvisionerHarness {
  readonly provisioner: DatabaseProvisioner;
  /** A fresh ref no other test uses. */
  newRef(): string;
  /**
   * Creates table `name` (columns `id uuid primary key`, `title text not null`) in public the
   * way a migration does (as the owner role), or the adapter's equivalent.
   */
  createTable(ref: string, name: string): Promise<void>;
  close?(): Promise<void>;
}

const limits: DatabaseLimits = { sizeMb: 50, connections: 3, statementTimeoutMs: 2_000 };

/**
 * The DatabaseProvisioner contract: provision names the database and the authenticator after the
 * ref and is idempotent; inspect sees tables (RLS on by default) and size; drop removes it all and
 * is idempotent; anything that is not a ref is refused before reaching the provider.
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

    it('drops a database, idempotently; an unknown ref inspects as null', async () => {
      const ref = fresh();
      await h.provisioner.provision(ref, limits);
      await h.provisioner.drop(ref);
      expect(await h.provisioner.inspect(ref)).toBeNull();
      await expect(h.provisioner.drop(ref)).resolves.toBeUndefined();
      expect(await h.provisioner.inspect(h.newRef())).toBeNull();
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

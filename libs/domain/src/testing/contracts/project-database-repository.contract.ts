import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ProjectDatabase } from '../../databases/project-database.entity.js';
import type { ProjectDatabaseRepository } from '../../databases/project-database-repository.port.js';

export interface ProjectDatabaseRepositoryHarness {
  readonly databases: ProjectDatabaseRepository;
  /** A fresh project id (adapters may need the project and its creator `ownerId` to exist). */
  newProject(): Promise<{ projectId: string; ownerId: string }>;
  close?(): Promise<void>;
}

const at = (minutes: number) => new Date(Date.UTC(2026, 2, 1, 10, 0, 0, 0) + minutes * 60_000 + 7);

/** The ProjectDatabaseRepository contract: records and their secrets round-trip; one per project, refs unique, also under a race. */
export function projectDatabaseRepositoryContract(name: string, makeHarness: () => Promise<ProjectDatabaseRepositoryHarness>): void {
  describe(`ProjectDatabaseRepository contract: ${name}`, () => {
    let h: ProjectDatabaseRepositoryHarness;
    let n = 0;
    const uid = () => `${(n += 1)}${Math.floor(Math.random() * 1e12).toString(36)}`;
    const refOf = () => `r${uid()}`.padEnd(20, '0').slice(0, 20);
    const record = (projectId: string, ownerId: string, fields: Partial<ProjectDatabase> = {}): ProjectDatabase => ({
      id: `00000000-0000-4000-8000-${uid().padStart(12, '0').slice(-12)}`,
      projectId,
      ownerId,
      ref: refOf(),
      provider: 'local',
      status: 'provisioning',
      connection: null,
      jwtSecret: `secret-${uid()}-${'x'.repeat(30)}`,
      createdAt: at(1),
      updatedAt: at(1),
      ...fields,
    });

    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h.close?.();
    });

    it('inserts, finds by project and ref, updates with the connection, and removes', async () => {
      const { projectId, ownerId } = await h.newProject();
      expect(await h.databases.findByProject(projectId)).toBeNull();
      const claim = record(projectId, ownerId);
      expect(await h.databases.insert(claim)).toBe(true);
      expect(await h.databases.findByProject(projectId)).toEqual(claim);
      expect(await h.databases.findByRef(claim.ref)).toEqual(claim);
      const ready: ProjectDatabase = {
        ...claim,
        status: 'ready',
        connection: { host: '127.0.0.1', port: 5432, database: `kiln_app_${claim.ref}`, user: `kiln_app_${claim.ref}_authenticator`, password: 'pässword "quoted"', ssl: false },
        updatedAt: at(2),
      };
      await h.databases.update(ready);
      expect(await h.databases.findByRef(claim.ref)).toEqual(ready);
      await h.databases.update({ ...ready, status: 'detached', updatedAt: at(3) });
      expect((await h.databases.findByProject(projectId))?.status).toBe('detached');
      await h.databases.remove(claim.id);
      expect(await h.databases.findByProject(projectId)).toBeNull();
      expect(await h.databases.findByRef(claim.ref)).toBeNull();
    });

    it('keeps one record per project and one project per ref, also when inserts race', async () => {
      const a = await h.newProject();
      const b = await h.newProject();
      const first = record(a.projectId, a.ownerId);
      expect(await h.databases.insert(first)).toBe(true);
      expect(await h.databases.insert(record(a.projectId, a.ownerId))).toBe(false);
      expect(await h.databases.insert(record(b.projectId, b.ownerId, { ref: first.ref }))).toBe(false);
      const c = await h.newProject();
      const results = await Promise.all(Array.from({ length: 6 }, () => h.databases.insert(record(c.projectId, c.ownerId))));
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });
}

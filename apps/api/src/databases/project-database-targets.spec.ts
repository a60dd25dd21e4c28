import { describe, expect, it } from '@jest/globals';
import { DEFAULT_DATABASE_PLAN_LIMITS, type GetDatabaseConnection, type ProfileRepository, ok } from '@kiln/domain';
import { ProjectDatabaseTargets } from './project-database-targets.js';

describe('ProjectDatabaseTargets', () => {
  const connectionOn = (ssl: boolean) =>
    ({
      byRef: async (ref: string) =>
        ok({ ref, projectId: 'p1', ownerId: 'u1', jwtSecret: 's'.repeat(40), connection: { host: 'ep-1.neon.tech', port: 5432, database: 'neondb', user: 'kiln_app_x_authenticator', password: 'pw', ssl } }),
    }) as unknown as GetDatabaseConnection;
  const noProfiles = { findById: async () => null } as unknown as ProfileRepository;

  it('keeps the database’s TLS requirement (a Neon database is reached over TLS only)', async () => {
    const neon = await new ProjectDatabaseTargets(connectionOn(true), noProfiles, DEFAULT_DATABASE_PLAN_LIMITS).findByRef('abc');
    expect(neon?.connection).toMatchObject({ host: 'ep-1.neon.tech', ssl: true });
    const local = await new ProjectDatabaseTargets(connectionOn(false), noProfiles, DEFAULT_DATABASE_PLAN_LIMITS).findByRef('abc');
    expect(local?.connection.ssl).toBe(false);
  });

  it('sizes the pool from the owner’s plan, less one connection for Kiln', async () => {
    const target = await new ProjectDatabaseTargets(connectionOn(false), noProfiles, DEFAULT_DATABASE_PLAN_LIMITS).findByRef('abc');
    expect(target?.maxConnections).toBe(DEFAULT_DATABASE_PLAN_LIMITS.free.connections - 1);
  });
});

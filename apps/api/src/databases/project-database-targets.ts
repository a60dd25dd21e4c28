import { type DataApiTarget, type DataApiTargets, type DatabasePlanLimits, type GetDatabaseConnection, type ProfileRepository, databaseLimitsOf } from '@kiln/domain';

/**
 * The data API's lookup of a project database by ref (DataApiTargets), over the databases
 * context: only a ready database of a live project answers. The pool is sized from the owner's
 * plan: its connection limit less one, so Kiln never takes every connection the project's role
 * may open (the pool also stays below the role's own CONNECTION LIMIT: DataApiPools). The data
 * API keeps each answer for a second (DataApiTargetCache).
 */
export class ProjectDatabaseTargets implements DataApiTargets {
  constructor(
    private readonly connections: GetDatabaseConnection,
    private readonly profiles: ProfileRepository,
    private readonly limits: DatabasePlanLimits,
  ) {}

  async findByRef(ref: string): Promise<DataApiTarget | null> {
    const found = await this.connections.byRef(ref);
    if (!found.ok) return null;
    const { connection, jwtSecret, ownerId } = found.value;
    const limits = await databaseLimitsOf(this.profiles, ownerId, this.limits);
    return {
      ref,
      ownerId,
      connection: { host: connection.host, port: connection.port, database: connection.database, user: connection.user, password: connection.password, ssl: connection.ssl },
      jwtSecret,
      maxConnections: Math.max(1, limits.connections - 1),
    };
  }
}

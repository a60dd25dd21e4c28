import type { DataApiTarget, DataApiTargets, GetDatabaseConnection } from '@kiln/domain';

/**
 * The data API's lookup of a project database by ref (DataApiTargets), over the databases
 * context: only a ready database of a live project answers. The pool per project is kept one
 * below the smallest plan's connection limit, so Kiln never takes every connection a project's
 * role may open (migrations and checks need one).
 */
export class ProjectDatabaseTargets implements DataApiTargets {
  constructor(
    private readonly connections: GetDatabaseConnection,
    private readonly poolSize: number,
  ) {}

  async findByRef(ref: string): Promise<DataApiTarget | null> {
    const found = await this.connections.byRef(ref);
    if (!found.ok) return null;
    const { connection, jwtSecret, ownerId } = found.value;
    return {
      ref,
      ownerId,
      connection: { host: connection.host, port: connection.port, database: connection.database, user: connection.user, password: connection.password },
      jwtSecret,
      maxConnections: this.poolSize,
    };
  }
}

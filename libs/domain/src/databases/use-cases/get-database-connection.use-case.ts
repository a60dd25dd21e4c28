import type { ProjectRepository } from '../../projects/project-repository.port.js';
import { type Result, err, ok } from '../../shared/result.js';
import { isDatabaseRef } from '../database-ref.js';
import { type DatabaseNotConnected, databaseNotConnected } from '../databases.errors.js';
import type { DatabaseConnection } from '../project-database.entity.js';
import type { ProjectDatabaseRepository } from '../project-database-repository.port.js';

/** What the data API needs on the server side to serve `{ref}.data…` (never sent to a browser). */
export interface DatabaseConnectionFacts {
  readonly ref: string;
  readonly projectId: string;
  readonly ownerId: string;
  /** The authenticator's login (pool it; SET LOCAL ROLE anon|authenticated per request). */
  readonly connection: DatabaseConnection;
  /** Verifies the anon key and app users' tokens (HS256), and signs app users' tokens. */
  readonly jwtSecret: string;
}

/**
 * The data API's lookup by the ref in the Host. Only a ready database of a live project answers:
 * a malformed ref, an unknown one, a detached database and a deleted project are all "not connected".
 */
export class GetDatabaseConnection {
  constructor(
    private readonly databases: ProjectDatabaseRepository,
    private readonly projects: ProjectRepository,
  ) {}

  async byRef(ref: string): Promise<Result<DatabaseConnectionFacts, DatabaseNotConnected>> {
    if (!isDatabaseRef(ref)) return err(databaseNotConnected());
    const database = await this.databases.findByRef(ref);
    if (!database || database.status !== 'ready' || !database.connection) return err(databaseNotConnected());
    const project = await this.projects.findById(database.projectId);
    if (!project || project.status === 'deleted') return err(databaseNotConnected());
    return ok({ ref, projectId: database.projectId, ownerId: database.ownerId, connection: database.connection, jwtSecret: database.jwtSecret });
  }
}

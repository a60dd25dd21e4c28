import type { DatabaseProviderName, ProjectDatabase, ProjectDatabaseRepository, ProjectDatabaseStatus } from '@kiln/domain';
import type { SecretBox } from '../databases/secret-box.js';
import type { PgUnitOfWork } from './pg-unit-of-work.js';
import { isUniqueViolation, sql } from './sql.js';

interface Row {
  id: string;
  project_id: string;
  owner_id: string;
  ref: string;
  provider: DatabaseProviderName;
  status: ProjectDatabaseStatus;
  host: string | null;
  port: number | null;
  database_name: string | null;
  username: string | null;
  password_sealed: string | null;
  ssl: boolean;
  jwt_secret_sealed: string;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'id, project_id, owner_id, ref, provider, status, host, port, database_name, username, password_sealed, ssl, jwt_secret_sealed, created_at, updated_at';

/**
 * Table project_databases (migration ProjectDatabases). The authenticator's password and the
 * JWT secret are sealed with the SecretBox (bound to the row id and column), so a dump of Kiln's
 * database alone gives no way into a project database or a way to mint its keys.
 */
export class PgProjectDatabaseRepository implements ProjectDatabaseRepository {
  constructor(
    private readonly tx: PgUnitOfWork,
    private readonly box: SecretBox,
  ) {}

  async findByProject(projectId: string): Promise<ProjectDatabase | null> {
    const { rows } = await sql<Row>(this.tx.manager(), `SELECT ${COLUMNS} FROM project_databases WHERE project_id = $1`, [projectId]);
    return rows[0] ? this.toEntity(rows[0]) : null;
  }

  async findByRef(ref: string): Promise<ProjectDatabase | null> {
    const { rows } = await sql<Row>(this.tx.manager(), `SELECT ${COLUMNS} FROM project_databases WHERE ref = $1`, [ref]);
    return rows[0] ? this.toEntity(rows[0]) : null;
  }

  async insert(database: ProjectDatabase): Promise<boolean> {
    try {
      await sql(this.tx.manager(), `INSERT INTO project_databases (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`, this.toParams(database));
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async update(database: ProjectDatabase): Promise<void> {
    const p = this.toParams(database);
    await sql(
      this.tx.manager(),
      `UPDATE project_databases SET project_id = $2, owner_id = $3, ref = $4, provider = $5, status = $6, host = $7, port = $8,
         database_name = $9, username = $10, password_sealed = $11, ssl = $12, jwt_secret_sealed = $13, created_at = $14, updated_at = $15
       WHERE id = $1`,
      p,
    );
  }

  async remove(id: string): Promise<void> {
    await sql(this.tx.manager(), 'DELETE FROM project_databases WHERE id = $1', [id]);
  }

  private toParams(d: ProjectDatabase): unknown[] {
    const c = d.connection;
    return [
      d.id,
      d.projectId,
      d.ownerId,
      d.ref,
      d.provider,
      d.status,
      c?.host ?? null,
      c?.port ?? null,
      c?.database ?? null,
      c?.user ?? null,
      c ? this.box.seal(c.password, `${d.id}:password`) : null,
      c?.ssl ?? false,
      this.box.seal(d.jwtSecret, `${d.id}:jwt_secret`),
      d.createdAt,
      d.updatedAt,
    ];
  }

  private toEntity(row: Row): ProjectDatabase {
    const hasConnection = row.host !== null && row.port !== null && row.database_name !== null && row.username !== null && row.password_sealed !== null;
    return Object.freeze({
      id: row.id,
      projectId: row.project_id,
      ownerId: row.owner_id,
      ref: row.ref,
      provider: row.provider,
      status: row.status,
      connection: hasConnection
        ? {
            host: row.host!,
            port: row.port!,
            database: row.database_name!,
            user: row.username!,
            password: this.box.open(row.password_sealed!, `${row.id}:password`),
            ssl: row.ssl,
          }
        : null,
      jwtSecret: this.box.open(row.jwt_secret_sealed, `${row.id}:jwt_secret`),
      createdAt: new Date(row.created_at),
      updatedAt: new Date(row.updated_at),
    });
  }
}

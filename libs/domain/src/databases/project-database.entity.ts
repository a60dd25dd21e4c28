/** Where a project's database lives: Kiln's own PostgreSQL server, or a Neon project. */
export type DatabaseProviderName = 'local' | 'neon';

/**
 * `provisioning`: claimed (the ref is reserved) while the provider creates it; `ready`: usable;
 * `detached`: disconnected by DELETE ?deleteFromProvider=false — the data stays on the provider
 * and provisioning again reattaches the same database (docs/databases.md "Deleting").
 */
export type ProjectDatabaseStatus = 'provisioning' | 'ready' | 'detached';

/**
 * How the data API reaches a project's database on the server side: the authenticator role's
 * login. Never sent to a browser.
 */
export interface DatabaseConnection {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
  readonly password: string;
  /** Whether the server needs TLS (Neon: yes; the local server: no). */
  readonly ssl: boolean;
}

/** One project's database as Kiln keeps it (table project_databases); secrets are encrypted at rest by the adapter. */
export interface ProjectDatabase {
  readonly id: string;
  readonly projectId: string;
  /** The project's owner when it was provisioned (who may see it). */
  readonly ownerId: string;
  readonly ref: string;
  readonly provider: DatabaseProviderName;
  readonly status: ProjectDatabaseStatus;
  /** null until the provider has created it. */
  readonly connection: DatabaseConnection | null;
  /** The project's own HS256 secret: the anon key and app users' tokens are signed with it. */
  readonly jwtSecret: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

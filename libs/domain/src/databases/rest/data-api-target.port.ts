import type { Result } from '../../shared/result.js';
import type { DatabaseQuotaExceeded, DatabaseServerUnavailable } from '../databases.errors.js';

/**
 * What the data API needs of a project database, by its public `ref` (docs/databases.md,
 * "Conventions"): how to reach it as the project's authenticator role, and the secret its keys
 * and app users' tokens are signed with. The provisioner's repository implements it.
 */
export interface DataApiTarget {
  readonly ref: string;
  /** The project's owner, whose plan sets the size quota. */
  readonly ownerId: string;
  readonly connection: {
    readonly host: string;
    readonly port: number;
    /** `kiln_app_<ref>` */
    readonly database: string;
    /** `kiln_app_<ref>_authenticator` */
    readonly user: string;
    readonly password: string;
    /** TLS with the server's certificate verified (Neon); absent or false on a local server. */
    readonly ssl?: boolean;
  };
  /** HS256 secret of the project's anon key and access tokens. */
  readonly jwtSecret: string;
  /** Pool size for this project (its plan's connection limit, less one for Kiln's own use). */
  readonly maxConnections: number;
}

export interface DataApiTargets {
  /** null: no such project database (or it was deleted). Throws when the store is unreachable. */
  findByRef(ref: string): Promise<DataApiTarget | null>;
}

/**
 * The size quota before a write of the data API (DatabaseQuotaGuard): cheap to ask on every
 * request (it measures at most every 30 s per database). Reads and deletes do not ask.
 */
export interface DataApiQuota {
  checkWrite(database: { readonly ref: string; readonly ownerId: string }): Promise<Result<void, DatabaseQuotaExceeded | DatabaseServerUnavailable>>;
}

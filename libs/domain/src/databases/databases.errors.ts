import type { DomainError } from '../shared/domain-error.js';

/** The databases context's expected failures; the API maps each code to a status (error-mapping.ts). */
export type DatabaseNotConnected = DomainError<'DATABASES.NOT_CONNECTED'>;
/** Another request is creating this project's database right now (409): try again in a moment. */
export type DatabaseProvisioning = DomainError<'DATABASES.PROVISIONING'>;
/** The provider (Kiln's PostgreSQL server, Neon) cannot be reached or refused (503). */
export type DatabaseServerUnavailable = DomainError<'DATABASES.SERVER_UNAVAILABLE'>;
/** The database is over its plan's size quota (the data API refuses writes: 402). */
export type DatabaseQuotaExceeded = DomainError<'DATABASES.QUOTA_EXCEEDED'> & { readonly sizeBytes: number; readonly quotaBytes: number };

export type DatabasesError = DatabaseNotConnected | DatabaseProvisioning | DatabaseServerUnavailable | DatabaseQuotaExceeded;

export const databaseNotConnected = (): DatabaseNotConnected => ({
  code: 'DATABASES.NOT_CONNECTED',
  message: 'This project has no database connected.',
});

export const databaseProvisioning = (): DatabaseProvisioning => ({
  code: 'DATABASES.PROVISIONING',
  message: 'This project’s database is being created. Try again in a moment.',
});

export const databaseServerUnavailable = (detail?: string): DatabaseServerUnavailable => ({
  code: 'DATABASES.SERVER_UNAVAILABLE',
  message: `The database server is unavailable${detail ? ` (${detail})` : ''}. Try again in a moment.`,
});

export const databaseQuotaExceeded = (sizeBytes: number, quotaBytes: number): DatabaseQuotaExceeded => ({
  code: 'DATABASES.QUOTA_EXCEEDED',
  message: `This project’s database uses ${Math.ceil(sizeBytes / 1048576)} MB of its ${Math.round(quotaBytes / 1048576)} MB. Delete data or upgrade your plan to write more.`,
  sizeBytes,
  quotaBytes,
});

/**
 * Thrown by a DatabaseProvisioner when its server cannot be reached (connection refused,
 * timeout, the provider's API down); the use cases turn it into DATABASES.SERVER_UNAVAILABLE.
 */
export class DatabaseServerDown extends Error {
  override readonly name = 'DatabaseServerDown';
}

/** A migration file failed: nothing of the run was applied (422). */
export type MigrationFailed = DomainError<'DATABASES.MIGRATION_FAILED'> & { readonly file: string; readonly line: number | null };
/** A migration already applied was edited afterwards (409): write a new migration instead. */
export type MigrationChanged = DomainError<'DATABASES.MIGRATION_CHANGED'> & { readonly file: string };

export const migrationFailed = (file: string, line: number | null, detail: string): MigrationFailed => ({
  code: 'DATABASES.MIGRATION_FAILED',
  message: `The migration ${file}${line === null ? '' : ` failed at line ${line}`}: ${detail}. Nothing of this run was applied.`,
  file,
  line,
});

export const migrationChanged = (file: string): MigrationChanged => ({
  code: 'DATABASES.MIGRATION_CHANGED',
  message: `The migration ${file} was changed after it was applied. Applied migrations never run again: put the change in a new migration file and restore this one.`,
  file,
});

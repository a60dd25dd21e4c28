import type { DomainError } from '../shared/domain-error.js';

/** The hosting context's expected failures; the API maps each code to a status (error-mapping.ts). */
export type InvalidSlug = DomainError<'HOSTING.INVALID_SLUG'>;
export type SlugTaken = DomainError<'HOSTING.SLUG_TAKEN'>;
export type InvalidDomain = DomainError<'HOSTING.INVALID_DOMAIN'>;
export type DomainTaken = DomainError<'HOSTING.DOMAIN_TAKEN'>;
export type DomainNotFound = DomainError<'HOSTING.DOMAIN_NOT_FOUND'>;
export type NotPublished = DomainError<'HOSTING.NOT_PUBLISHED'>;
export type ReleaseNotFound = DomainError<'HOSTING.RELEASE_NOT_FOUND'>;
/** The build failed: nothing was published and nothing was charged; `log` is the build's output. */
export type BuildFailed = DomainError<'HOSTING.BUILD_FAILED'> & { readonly log: string };
export type NothingToPublish = DomainError<'HOSTING.NOTHING_TO_PUBLISH'>;
/** The project's database has tables with row-level security off: anyone could read them (409). */
export type DatabaseUnsafe = DomainError<'HOSTING.DATABASE_UNSAFE'> & { readonly tables: readonly string[] };
export type DnsNotReady = DomainError<'HOSTING.DNS_NOT_READY'> & {
  readonly txtFound: boolean;
  readonly targetFound: boolean;
};

export type HostingError =
  | InvalidSlug
  | SlugTaken
  | InvalidDomain
  | DomainTaken
  | DomainNotFound
  | NotPublished
  | ReleaseNotFound
  | BuildFailed
  | NothingToPublish
  | DatabaseUnsafe
  | DatabaseCheckUnavailable
  | DnsNotReady;

/** The project's database could not be checked (its server is down): nothing is published (503). */
export type DatabaseCheckUnavailable = DomainError<'HOSTING.DATABASE_CHECK_UNAVAILABLE'>;
export const databaseCheckUnavailable = (reason: string): DatabaseCheckUnavailable => ({
  code: 'HOSTING.DATABASE_CHECK_UNAVAILABLE',
  message: `The app's database could not be checked right now (${reason}), so nothing was published. Try again in a minute.`,
});

export const databaseUnsafe = (tables: readonly string[]): DatabaseUnsafe => ({
  code: 'HOSTING.DATABASE_UNSAFE',
  message: `${tables.length === 1 ? `The table ${tables[0]} has` : `The tables ${tables.join(', ')} have`} row-level security turned off, so anyone with the app's key could read and change every row. Turn it on with a migration (alter table … enable row level security) and add policies, then publish again.`,
  tables,
});

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
  | DnsNotReady;

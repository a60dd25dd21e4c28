import type { DomainError } from '../shared/domain-error.js';
import type { Result } from '../shared/result.js';

/** Where a visitor appears to be (SPEC §7: an IP geolocation lookup before checkout). */
export interface GeoLocation {
  /** ISO 3166-1 alpha-2 code as the service reports it, e.g. 'IN'; null when unknown. */
  readonly countryCode: string | null;
  readonly country?: string;
  readonly city?: string;
}

/** SPEC §8 location errors. Each is an expected outcome: checkout then falls back to USD. */
export type GeoLocationError =
  | DomainError<'GEO.DETECTION_FAILED'>
  | (DomainError<'GEO.HTTP_ERROR'> & { readonly status: number })
  | DomainError<'GEO.UNAVAILABLE'>;

/** The service answered but reported no success. */
export const locationDetectionFailed = (): GeoLocationError => ({
  code: 'GEO.DETECTION_FAILED',
  message: 'Location detection failed',
});

/** The service answered with a non-success HTTP status. */
export const locationHttpError = (status: number): GeoLocationError => ({
  code: 'GEO.HTTP_ERROR',
  message: `HTTP error! status: ${status}`,
  status,
});

/** The service could not be reached or its answer could not be read. */
export const locationUnavailable = (): GeoLocationError => ({
  code: 'GEO.UNAVAILABLE',
  message: 'Failed to detect location',
});

export interface GeoLocator {
  /**
   * Locates the visitor at `clientIp`; browser-side adapters omit it and locate the caller.
   * Answers a Result rather than rejecting, since a failed lookup is routine and has a fallback.
   */
  locate(clientIp?: string): Promise<Result<GeoLocation, GeoLocationError>>;
}

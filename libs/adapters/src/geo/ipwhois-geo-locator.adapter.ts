import {
  type GeoLocation,
  type GeoLocationError,
  type GeoLocator,
  type Result,
  err,
  locationDetectionFailed,
  locationHttpError,
  locationUnavailable,
  ok,
} from '@kiln/domain';

export interface IpWhoIsGeoLocatorConfig {
  /** GEOLOCATION_URL: the lookup URL with `{ip}` where the address goes, e.g. https://ipwho.is/{ip}. */
  readonly urlTemplate: string;
  /** How long one lookup may take before it counts as unreachable (GEOLOCATION_TIMEOUT_MS). */
  readonly timeoutMs: number;
}

/**
 * SPEC §7's IP geolocation lookup against a service speaking ipwho.is's JSON (GET {url}/{ip},
 * Accept JSON; reads success, country_code, country, city). Every failure is a Result with §8's
 * message — the caller falls back to USD — so a slow or broken service never fails a page.
 */
export class IpWhoIsGeoLocator implements GeoLocator {
  constructor(
    private readonly config: IpWhoIsGeoLocatorConfig,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  async locate(clientIp?: string): Promise<Result<GeoLocation, GeoLocationError>> {
    // Without an address the service locates the caller: that would be this server, not the visitor.
    if (clientIp === undefined || clientIp.trim() === '') return err(locationDetectionFailed());
    const url = this.config.urlTemplate.replace('{ip}', encodeURIComponent(bareAddress(clientIp)));
    let response: Response;
    let body: unknown;
    try {
      response = await this.fetchFn(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(this.config.timeoutMs) });
      if (!response.ok) return err(locationHttpError(response.status));
      body = await response.json();
    } catch {
      return err(locationUnavailable());
    }
    if (typeof body !== 'object' || body === null) return err(locationUnavailable());
    const reply = body as Record<string, unknown>;
    if (reply['success'] !== true) return err(locationDetectionFailed());
    const code = reply['country_code'];
    return ok({
      countryCode: typeof code === 'string' && /^[A-Za-z]{2}$/.test(code.trim()) ? code.trim().toUpperCase() : null,
      ...text('country', reply['country']),
      ...text('city', reply['city']),
    });
  }
}

/** '::ffff:1.2.3.4' (IPv4 seen by an IPv6 socket) → '1.2.3.4'. */
function bareAddress(ip: string): string {
  const trimmed = ip.trim();
  return trimmed.startsWith('::ffff:') && trimmed.includes('.') ? trimmed.slice('::ffff:'.length) : trimmed;
}

function text<K extends string>(key: K, value: unknown): Partial<Record<K, string>> {
  return typeof value === 'string' && value.trim() !== '' ? ({ [key]: value.trim() } as Record<K, string>) : {};
}

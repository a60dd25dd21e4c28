/** The IP geolocation lookup that picks the checkout currency (README "Configuration", SPEC §7). */
export interface GeoConfig {
  /**
   * GEOLOCATION_URL: a lookup URL with `{ip}` where the visitor's address goes, answering
   * ipwho.is's JSON (e.g. https://ipwho.is/{ip}); null: no lookup, everyone is charged USD.
   */
  readonly urlTemplate: string | null;
  /** GEOLOCATION_TIMEOUT_MS: how long a lookup may take before the USD fallback (default 3000). */
  readonly timeoutMs: number;
}

export const DEFAULT_GEOLOCATION_TIMEOUT_MS = 3000;
const MIN_TIMEOUT_MS = 100;
const MAX_TIMEOUT_MS = 30_000;

type Env = Readonly<Record<string, string | undefined>>;
type Report = (problem: string) => void;
const blank = (v: string | undefined) => (v === undefined || v.trim() === '' ? null : v.trim());

/** Reads GEOLOCATION_URL and GEOLOCATION_TIMEOUT_MS, reporting every problem. */
export function parseGeoConfig(env: Env, report: Report): GeoConfig {
  const timeoutRaw = blank(env['GEOLOCATION_TIMEOUT_MS']);
  let timeoutMs = DEFAULT_GEOLOCATION_TIMEOUT_MS;
  if (timeoutRaw !== null) {
    const value = /^\d{1,6}$/.test(timeoutRaw) ? Number(timeoutRaw) : NaN;
    if (value >= MIN_TIMEOUT_MS && value <= MAX_TIMEOUT_MS) timeoutMs = value;
    else report(`GEOLOCATION_TIMEOUT_MS must be a whole number of milliseconds between ${MIN_TIMEOUT_MS} and ${MAX_TIMEOUT_MS}, got "${timeoutRaw}"`);
  }
  const raw = blank(env['GEOLOCATION_URL']);
  if (raw === null) return { urlTemplate: null, timeoutMs };
  // The URL may carry an API key (…?key=…): problems never echo it.
  const problem = urlTemplateProblem(raw);
  if (problem !== null) {
    report(`GEOLOCATION_URL ${problem} (for example https://ipwho.is/{ip})`);
    return { urlTemplate: null, timeoutMs };
  }
  return { urlTemplate: raw, timeoutMs };
}

function urlTemplateProblem(raw: string): string | null {
  if (raw.split('{ip}').length !== 2) return 'must contain {ip} exactly once';
  let url: URL;
  try {
    url = new URL(raw.replace('{ip}', '192.0.2.1'));
  } catch {
    return 'must be an http:// or https:// URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `must be an http:// or https:// URL, got one starting with ${url.protocol}//`;
  if (url.hostname === '') return 'must name a host';
  if (url.username !== '' || url.password !== '') return 'must not contain credentials';
  return null;
}

/** Where marketing contacts go (README "Configuration", issue #17 item 1). */
export interface MarketingConfig {
  /**
   * BREVO_API_KEY: Brevo's API key (xkeysib-…); null keeps contacts and events in PostgreSQL
   * (the local default, shown by /api/dev/marketing outside production).
   */
  readonly brevoApiKey: string | null;
  /** BREVO_BASE_URL: Brevo's API root, default https://api.brevo.com/v3 (tests point it at a local fake). */
  readonly brevoBaseUrl: string | null;
  /** BREVO_TIMEOUT_MS: how long one Brevo request may take (default 10 000). */
  readonly brevoTimeoutMs: number;
  /**
   * MARKETING_DELIVERY_INTERVAL_MS: how often the outbox worker delivers (default 10 000; 0 turns
   * it off, the default under NODE_ENV=test, where tests run it by hand).
   */
  readonly deliveryIntervalMs: number;
}

export const DEFAULT_BREVO_TIMEOUT_MS = 10_000;
export const DEFAULT_MARKETING_DELIVERY_INTERVAL_MS = 10_000;

type Env = Readonly<Record<string, string | undefined>>;
type Report = (problem: string) => void;
const blank = (v: string | undefined) => (v === undefined || v.trim() === '' ? null : v.trim());

function wholeNumber(env: Env, name: string, min: number, max: number, fallback: number, report: Report, allowZero = false): number {
  const raw = blank(env[name]);
  if (raw === null) return fallback;
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if ((allowZero && value === 0) || (value >= min && value <= max)) return value;
  report(`${name} must be a whole number of milliseconds between ${min} and ${max}${allowZero ? ' (or 0 for off)' : ''}, got "${raw}"`);
  return fallback;
}

/** Reads BREVO_API_KEY, BREVO_BASE_URL, BREVO_TIMEOUT_MS and MARKETING_DELIVERY_INTERVAL_MS, reporting every problem. */
export function parseMarketingConfig(env: Env, nodeEnv: string, report: Report): MarketingConfig {
  const brevoTimeoutMs = wholeNumber(env, 'BREVO_TIMEOUT_MS', 1000, 60_000, DEFAULT_BREVO_TIMEOUT_MS, report);
  const deliveryIntervalMs = wholeNumber(
    env,
    'MARKETING_DELIVERY_INTERVAL_MS',
    1000,
    3_600_000,
    nodeEnv === 'test' ? 0 : DEFAULT_MARKETING_DELIVERY_INTERVAL_MS,
    report,
    true,
  );
  const key = blank(env['BREVO_API_KEY']);
  const baseRaw = blank(env['BREVO_BASE_URL']);
  // The key is a secret: problems never echo it.
  if (key !== null && /\s/.test(key)) report('BREVO_API_KEY must not contain spaces or line breaks (check how it was pasted)');
  if (key !== null && key.startsWith('xsmtpsib-')) report('BREVO_API_KEY is an SMTP key (xsmtpsib-…): use an API v3 key (xkeysib-…) from Brevo’s SMTP & API settings');
  if (baseRaw !== null && key === null) report('BREVO_BASE_URL is set but BREVO_API_KEY is not: set the key too (or unset the URL for the local marketing store)');
  let brevoBaseUrl: string | null = null;
  if (baseRaw !== null) {
    let url: URL | null = null;
    try {
      url = new URL(baseRaw);
    } catch {
      url = null;
    }
    if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') report('BREVO_BASE_URL must be an http:// or https:// URL such as https://api.brevo.com/v3');
    else if (url.username !== '' || url.password !== '') report('BREVO_BASE_URL must not contain credentials (the key goes in BREVO_API_KEY)');
    else brevoBaseUrl = baseRaw.replace(/\/+$/, '');
  }
  return { brevoApiKey: key, brevoBaseUrl, brevoTimeoutMs, deliveryIntervalMs };
}

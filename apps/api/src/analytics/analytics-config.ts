/** Analytics settings (README "Configuration"): the operators, the optional GA4 script, localhost. */
export interface AnalyticsConfig {
  /** OPERATOR_EMAILS: who may read the daily activity chart (lower case; empty: nobody). */
  readonly operatorEmails: readonly string[];
  /**
   * GA4_MEASUREMENT_ID (G-XXXXXXX): the web also loads Google's gtag.js and sends every event
   * there; null: events go to Kiln's own store only. GA4_SCRIPT_ORIGIN: where gtag.js is
   * loaded from (default Google's; tests point it at a local fake).
   */
  readonly ga4: { readonly measurementId: string; readonly scriptOrigin: string } | null;
  /** ANALYTICS_ON_LOCALHOST=true: the web sends analytics from localhost too (SPEC §5). */
  readonly onLocalhost: boolean;
}

export const DEFAULT_GA4_SCRIPT_ORIGIN = 'https://www.googletagmanager.com';

type Env = Readonly<Record<string, string | undefined>>;
type Report = (problem: string) => void;
const blank = (v: string | undefined) => (v === undefined || v.trim() === '' ? null : v.trim());

const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;
const MEASUREMENT_ID = /^G-[A-Z0-9]{4,20}$/;

/** Reads OPERATOR_EMAILS, GA4_MEASUREMENT_ID, GA4_SCRIPT_ORIGIN and ANALYTICS_ON_LOCALHOST, reporting every problem. */
export function parseAnalyticsConfig(env: Env, report: Report): AnalyticsConfig {
  const operatorEmails: string[] = [];
  for (const raw of (blank(env['OPERATOR_EMAILS']) ?? '').split(',')) {
    const email = raw.trim().toLowerCase();
    if (email === '') continue;
    if (EMAIL.test(email)) operatorEmails.push(email);
    else report(`OPERATOR_EMAILS must be a comma-separated list of email addresses, got "${raw.trim()}"`);
  }

  const onLocalhostRaw = blank(env['ANALYTICS_ON_LOCALHOST']);
  if (onLocalhostRaw !== null && onLocalhostRaw !== 'true' && onLocalhostRaw !== 'false') {
    report(`ANALYTICS_ON_LOCALHOST must be true or false, got "${onLocalhostRaw}"`);
  }
  const onLocalhost = onLocalhostRaw === 'true';

  const originRaw = blank(env['GA4_SCRIPT_ORIGIN']);
  const scriptOrigin = originRaw === null ? DEFAULT_GA4_SCRIPT_ORIGIN : originOf(originRaw, report);
  const id = blank(env['GA4_MEASUREMENT_ID']);
  if (id === null) {
    if (originRaw !== null) report('GA4_SCRIPT_ORIGIN is set but GA4_MEASUREMENT_ID is not: set both, or neither');
    return { operatorEmails, ga4: null, onLocalhost };
  }
  if (!MEASUREMENT_ID.test(id)) {
    report(`GA4_MEASUREMENT_ID must look like G-XXXXXXXXXX (a GA4 web stream's measurement id), got "${id}"`);
    return { operatorEmails, ga4: null, onLocalhost };
  }
  return { operatorEmails, ga4: scriptOrigin === null ? null : { measurementId: id, scriptOrigin }, onLocalhost };
}

/** An http(s) origin without a path, or null after reporting why not. */
function originOf(raw: string, report: Report): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    report(`GA4_SCRIPT_ORIGIN must be an http:// or https:// origin such as ${DEFAULT_GA4_SCRIPT_ORIGIN}, got "${raw}"`);
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search !== '' || url.username !== '') {
    report(`GA4_SCRIPT_ORIGIN must be an http:// or https:// origin such as ${DEFAULT_GA4_SCRIPT_ORIGIN}, got "${raw}"`);
    return null;
  }
  return url.origin;
}

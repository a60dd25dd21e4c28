import path from 'node:path';

/**
 * Which edge serves published sites and gets their certificates (HOSTING_EDGE, docs/hosting.md):
 * `embedded` — the API's own server, plain HTTP, nothing to issue (development, `npm start`);
 * `caddy` — Caddy in front, configured through its admin API at start, certificates by ACME
 * through its on-demand TLS behind Kiln's ask endpoint.
 */
export type EdgeConfig =
  | { readonly kind: 'embedded' }
  | {
      readonly kind: 'caddy';
      readonly adminUrl: string;
      readonly httpPort: number;
      readonly httpsPort: number;
      /** Where Kiln reaches Caddy's HTTPS port to ask for a certificate. */
      readonly tlsHost: string;
      readonly redirectHttp: boolean;
      readonly storageDir: string | null;
      /** Kiln's ask endpoint as Caddy reaches it. */
      readonly askUrl: string;
      readonly wildcard: { readonly certFile: string; readonly keyFile: string } | null;
      readonly acmeDirectoryUrl: string | null;
      readonly acmeEmail: string | null;
      readonly acmeCaRootFile: string | null;
      readonly acmeIssuerRootFile: string | null;
    };

type Env = Readonly<Record<string, string | undefined>>;
type Report = (problem: string) => void;
const blank = (v: string | undefined) => (v === undefined || v.trim() === '' ? null : v.trim());

function port(name: string, raw: string | null, fallback: number, report: Report): number {
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!/^\d{1,5}$/.test(raw) || n < 1 || n > 65_535) {
    report(`${name} must be a port number (1-65535), got "${raw}"`);
    return fallback;
  }
  return n;
}

function httpUrl(name: string, raw: string | null, fallback: string, report: Report): string {
  const value = raw ?? fallback;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value.replace(/\/+$/, '');
  } catch {
    // reported below
  }
  report(`${name} must be an http:// or https:// URL, got "${value}"`);
  return fallback;
}

function file(name: string, raw: string | null, report: Report): string | null {
  if (raw === null) return null;
  if (!path.isAbsolute(raw)) report(`${name} must be an absolute path, got "${raw}"`);
  return raw;
}

/** Reads HOSTING_EDGE and, for `caddy`, its variables, reporting every problem. */
export function parseEdgeConfig(env: Env, apiPort: number, report: Report): EdgeConfig {
  const kind = blank(env['HOSTING_EDGE']) ?? 'embedded';
  if (kind !== 'embedded' && kind !== 'caddy') {
    report(`HOSTING_EDGE must be embedded or caddy, got "${kind}"`);
    return { kind: 'embedded' };
  }
  if (kind === 'embedded') return { kind };
  const certFile = file('TLS_WILDCARD_CERT_FILE', blank(env['TLS_WILDCARD_CERT_FILE']), report);
  const keyFile = file('TLS_WILDCARD_KEY_FILE', blank(env['TLS_WILDCARD_KEY_FILE']), report);
  if ((certFile === null) !== (keyFile === null)) report('TLS_WILDCARD_CERT_FILE and TLS_WILDCARD_KEY_FILE go together: set both or neither');
  const redirect = blank(env['CADDY_REDIRECT_HTTP']) ?? 'false';
  if (redirect !== 'true' && redirect !== 'false') report(`CADDY_REDIRECT_HTTP must be true or false, got "${redirect}"`);
  const acmeEmail = blank(env['ACME_EMAIL']);
  if (acmeEmail !== null && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(acmeEmail)) report(`ACME_EMAIL must be an email address, got "${acmeEmail}"`);
  const acmeDirectoryUrl = blank(env['ACME_DIRECTORY_URL']);
  return {
    kind,
    adminUrl: httpUrl('CADDY_ADMIN_URL', blank(env['CADDY_ADMIN_URL']), 'http://127.0.0.1:2019', report),
    httpPort: port('CADDY_HTTP_PORT', blank(env['CADDY_HTTP_PORT']), 80, report),
    httpsPort: port('CADDY_HTTPS_PORT', blank(env['CADDY_HTTPS_PORT']), 443, report),
    tlsHost: blank(env['CADDY_TLS_HOST']) ?? '127.0.0.1',
    redirectHttp: redirect === 'true',
    storageDir: file('CADDY_STORAGE_DIR', blank(env['CADDY_STORAGE_DIR']), report),
    askUrl: httpUrl('TLS_ASK_URL', blank(env['TLS_ASK_URL']), `http://127.0.0.1:${apiPort}/api/hosting/tls-allowed`, report),
    wildcard: certFile !== null && keyFile !== null ? { certFile, keyFile } : null,
    acmeDirectoryUrl: acmeDirectoryUrl === null ? null : httpUrl('ACME_DIRECTORY_URL', acmeDirectoryUrl, acmeDirectoryUrl, report),
    acmeEmail,
    acmeCaRootFile: file('ACME_CA_ROOT_FILE', blank(env['ACME_CA_ROOT_FILE']), report),
    acmeIssuerRootFile: file('ACME_ISSUER_ROOT_FILE', blank(env['ACME_ISSUER_ROOT_FILE']), report),
  };
}

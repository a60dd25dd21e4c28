import path from 'node:path';

/** Where Kiln's published sites are served from, and how their certificates are got. */
export interface CaddyEdgeOptions {
  /** Caddy's admin API, e.g. `http://127.0.0.1:2019` (CADDY_ADMIN_URL). Kept in the loaded config, or Caddy would move it. */
  readonly adminUrl: string;
  /** The hosting folder (DATA_DIR/hosting): `hosts/<host>` is the folder (a symlink to a release) served for that host. */
  readonly hostingRoot: string;
  /** Ports Caddy listens on (CADDY_HTTP_PORT, CADDY_HTTPS_PORT; 80 and 443 in production). */
  readonly httpPort: number;
  readonly httpsPort: number;
  /** Kiln's ask endpoint: Caddy issues a certificate on demand only when `GET <askUrl>?domain=<host>` answers 2xx. */
  readonly askUrl: string;
  /** Kiln's own subdomains (the published-site parent domain): served with one certificate from files, never issued on demand. */
  readonly wildcard?: {
    /** e.g. `['*.kiln.app']`. */
    readonly subjects: readonly string[];
    readonly certFile: string;
    readonly keyFile: string;
  };
  readonly acme?: {
    /** ACME_DIRECTORY_URL: Let's Encrypt (and ZeroSSL, Caddy's defaults) when absent. */
    readonly directoryUrl?: string;
    /** ACME_EMAIL: the account's contact address. */
    readonly email?: string;
    /** ACME_CA_ROOT_FILE: a PEM root to trust for the ACME server's own HTTPS (a private or test CA). */
    readonly caRootFile?: string;
  };
  /** Where Caddy keeps its certificates and ACME account (default: Caddy's own, $XDG_DATA_HOME/caddy). */
  readonly storageDir?: string;
  /** Answer plain HTTP with a redirect to HTTPS (ACME HTTP-01 challenges still answered). Default: serve the sites on both. */
  readonly redirectHttp?: boolean;
}

/**
 * Host names Caddy may map to a folder: lower-case DNS labels, so `{http.request.host}` can
 * never be `..`, hold a `/` or `\`, or name anything but `hosts/<host>`. Written without `{}` or
 * `\` because Caddy expands placeholders in CEL expressions and CEL strings reject `\.`.
 */
export const SERVABLE_HOST_PATTERN = '^[a-z0-9]([a-z0-9-]*[a-z0-9])?([.][a-z0-9]([a-z0-9-]*[a-z0-9])?)*$';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const WILDCARD_TAG = 'kiln-wildcard';

type Json = Record<string, unknown>;

/** The routes both servers run: static files of `hosts/<host>`, SPA fallback, caching, compression. */
function siteRoutes(hostingRoot: string): Json[] {
  return [
    // Any other Host (an IP, a port trick, `..`, upper case) is a 404 before a path is built from it.
    {
      match: [{ expression: `!{http.request.host}.matches('${SERVABLE_HOST_PATTERN}')` }],
      handle: [{ handler: 'static_response', status_code: 404, body: 'Not found' }],
      terminal: true,
    },
    {
      handle: [
        { handler: 'vars', root: `${path.join(hostingRoot, 'hosts')}/{http.request.host}` },
        { handler: 'headers', response: { set: { 'Cache-Control': ['no-cache'], 'X-Content-Type-Options': ['nosniff'] }, delete: ['Server'] } },
      ],
    },
    // Hashed build assets never change under a name; only a found one may be cached for a year.
    {
      match: [{ path: ['/assets/*'] }],
      handle: [{ handler: 'headers', response: { set: { 'Cache-Control': [IMMUTABLE] }, require: { status_code: [2] }, deferred: true } }],
    },
    // Client-side routes fall back to index.html; a missing asset stays a 404 (not HTML under a .js name).
    {
      match: [{ not: [{ path: ['/assets/*'] }] }],
      handle: [
        {
          handler: 'subroute',
          routes: [
            {
              match: [{ file: { try_files: ['{http.request.uri.path}', '/index.html'] } }],
              handle: [{ handler: 'rewrite', uri: '{http.matchers.file.relative}' }],
            },
          ],
        },
      ],
    },
    {
      handle: [
        { handler: 'encode', encodings: { zstd: {}, gzip: {} }, prefer: ['zstd', 'gzip'] },
        { handler: 'file_server' },
      ],
    },
  ];
}

/** The whole Caddy JSON config Kiln loads (`POST /load`): pure, so it is tested without Caddy. */
export function caddyConfig(options: CaddyEdgeOptions): Json {
  const admin = new URL(options.adminUrl);
  if (admin.protocol !== 'http:' || admin.pathname !== '/') throw new Error(`CADDY_ADMIN_URL must be http://host:port, got ${options.adminUrl}`);
  // Caddy resolves a relative root against its own working directory, not Kiln's.
  if (!path.isAbsolute(options.hostingRoot)) throw new Error(`The hosting folder must be an absolute path for Caddy, got ${options.hostingRoot}`);
  for (const port of [options.httpPort, options.httpsPort]) if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`Not a port: ${port}`);
  if (!/^https?:\/\//.test(options.askUrl)) throw new Error(`TLS_ASK_URL must be an http(s) URL, got ${options.askUrl}`);
  const issuer: Json = { module: 'acme' };
  if (options.acme?.directoryUrl) issuer.ca = options.acme.directoryUrl;
  if (options.acme?.email) issuer.email = options.acme.email;
  if (options.acme?.caRootFile) issuer.trusted_roots_pem_files = [options.acme.caRootFile];
  const issuers = options.acme?.directoryUrl || options.acme?.email || options.acme?.caRootFile ? [issuer] : undefined;
  const wildcard = options.wildcard;
  const routes = siteRoutes(options.hostingRoot);
  const httpRoutes = options.redirectHttp
    ? [{ handle: [{ handler: 'static_response', status_code: 308, headers: { Location: [`https://{http.request.host}${options.httpsPort === 443 ? '' : `:${options.httpsPort}`}{http.request.uri}`] } }] }]
    : routes;

  return {
    admin: { listen: admin.host },
    ...(options.storageDir ? { storage: { module: 'file_system', root: options.storageDir } } : {}),
    apps: {
      http: {
        http_port: options.httpPort,
        https_port: options.httpsPort,
        servers: {
          // Also answers ACME HTTP-01 challenges: Caddy handles /.well-known/acme-challenge/ before the routes.
          'kiln-http': { listen: [`:${options.httpPort}`], routes: httpRoutes, automatic_https: { disable_redirects: true } },
          'kiln-https': {
            listen: [`:${options.httpsPort}`],
            routes,
            automatic_https: { disable_redirects: true },
            tls_connection_policies: [
              ...(wildcard ? [{ match: { sni: [...wildcard.subjects] }, certificate_selection: { any_tag: [WILDCARD_TAG] } }] : []),
              {},
            ],
          },
        },
      },
      tls: {
        ...(wildcard ? { certificates: { load_files: [{ certificate: wildcard.certFile, key: wildcard.keyFile, tags: [WILDCARD_TAG] }] } } : {}),
        automation: {
          policies: [
            // Kiln's subdomains: the loaded wildcard only. No on-demand issuing for them, even if the file is missing.
            ...(wildcard ? [{ subjects: [...wildcard.subjects], ...(issuers ? { issuers } : {}), on_demand: false }] : []),
            { ...(issuers ? { issuers } : {}), on_demand: true },
          ],
          on_demand: { ask: options.askUrl },
        },
      },
    },
  };
}

/** Thrown when Caddy's admin API cannot be reached or refuses the config (the API reports the edge as down). */
export class CaddyEdgeUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CaddyEdgeUnavailable';
  }
}

/**
 * Kiln's production edge: Caddy, configured through its admin API. Sites need no reload when
 * published or rolled back (the host's folder is a symlink the hosting provider switches), so
 * Kiln loads this config once at start; loading it again is harmless (Caddy ignores an
 * unchanged config).
 */
export class CaddyEdge {
  constructor(
    private readonly options: CaddyEdgeOptions,
    private readonly timeoutMs = 10_000,
  ) {}

  get config(): Json {
    return caddyConfig(this.options);
  }

  async load(): Promise<void> {
    const url = new URL('/load', this.options.adminUrl);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(this.config),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new CaddyEdgeUnavailable(`Caddy's admin API at ${url.origin} did not answer: ${(error as Error).message}`);
    }
    if (!response.ok) {
      const body = (await response.text()).slice(0, 2000);
      throw new CaddyEdgeUnavailable(`Caddy refused the config (${response.status}): ${body}`);
    }
  }

  /** Caddy's running config (for checks and the operator's eyes). */
  async running(): Promise<unknown> {
    const response = await fetch(new URL('/config/', this.options.adminUrl), { signal: AbortSignal.timeout(this.timeoutMs) });
    if (!response.ok) throw new CaddyEdgeUnavailable(`Caddy's admin API answered ${response.status}`);
    return response.json();
  }
}

/** The wildcard subject for the parent domain of Kiln's subdomains: `pantry.kiln.app` → `*.kiln.app`. */
export function wildcardSubjectFor(siteHost: string): string {
  const labels = siteHost.toLowerCase().split('.');
  if (labels.length < 3 || labels.some((l) => l === '')) throw new Error(`No wildcard parent for ${siteHost}`);
  return `*.${labels.slice(1).join('.')}`;
}

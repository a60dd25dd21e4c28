/** npm's default registry, used when neither an option nor npm's environment names another. */
export const DEFAULT_NPM_REGISTRY = 'https://registry.npmjs.org/';

/** A host (lower case, no trailing dot, IPv6 without brackets) and a port. */
export interface EgressTarget {
  readonly host: string;
  readonly port: number;
}

/** `host:port`, IPv6 hosts in brackets: the key of allow-lists. */
export function targetKey({ host, port }: EgressTarget): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function normalizeHost(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
}

function validPort(text: string): number | null {
  if (!/^\d{1,5}$/.test(text)) return null;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : null;
}

/** A CONNECT request's target (`host:port`, `[v6]:port`), or null when it is anything else. */
export function parseConnectTarget(text: string): EgressTarget | null {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):(\d+)$/.exec(text);
  if (match === null) return null;
  const port = validPort(match[3] as string);
  const host = normalizeHost(match[1] ?? match[2] ?? '');
  return port === null || host === '' ? null : { host, port };
}

/** The scheme, host and port of an absolute http(s) URL, or null. */
export function urlTarget(text: string): (EgressTarget & { readonly protocol: 'http:' | 'https:' }) | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const host = normalizeHost(url.hostname);
  if (host === '') return null;
  return { protocol: url.protocol, host, port: url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port) };
}

/** The registry npm will use: npm's environment variable, else npm's default. */
export function registryFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return env.npm_config_registry ?? env.NPM_CONFIG_REGISTRY ?? DEFAULT_NPM_REGISTRY;
}

/**
 * The proxy to chain through when the host itself reaches the internet through one (npm's or the
 * usual variable), or null.
 */
export function upstreamProxyFromEnv(env: NodeJS.ProcessEnv = process.env): string | null {
  const value = env.npm_config_https_proxy ?? env.NPM_CONFIG_HTTPS_PROXY ?? env.HTTPS_PROXY ?? env.https_proxy;
  return value === undefined || value.trim() === '' ? null : value.trim();
}

/** The host's NO_PROXY list: the hosts reached without the upstream proxy. */
export function noProxyFromEnv(env: NodeJS.ProcessEnv = process.env): readonly string[] {
  const value = env.npm_config_noproxy ?? env.NPM_CONFIG_NOPROXY ?? env.NO_PROXY ?? env.no_proxy ?? '';
  return value
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
}

/** Whether a NO_PROXY list (`*`, `host`, `.domain`, `domain`, `host:port`) covers the target. */
export function bypassesProxy(target: EgressTarget, noProxy: readonly string[]): boolean {
  return noProxy.some((entry) => {
    if (entry === '*') return true;
    const parsed = parseConnectTarget(entry);
    if (parsed !== null && parsed.port !== target.port) return false;
    const domain = normalizeHost(parsed?.host ?? entry).replace(/^\*?\./, '');
    return target.host === domain || target.host.endsWith(`.${domain}`);
  });
}

import { isIP } from 'node:net';
import { type PublishedUrls, parseDomainName } from '@kiln/domain';
import { type EdgeConfig, parseEdgeConfig } from './edge-config.js';

/** Default: browsers resolve `*.localhost` to loopback, so published sites work locally with no DNS set-up. */
export const DEFAULT_PUBLISHED_URL_TEMPLATE = 'http://{slug}.apps.localhost:{port}';
export const DEFAULT_HOSTING_TARGET_ADDRESSES: readonly string[] = ['127.0.0.1'];

/** Publishing's configuration (docs/hosting.md, README's table). */
export interface HostingConfig {
  /** PUBLISHED_URL_TEMPLATE with `{port}` filled in, e.g. `http://{slug}.apps.localhost:3000`. */
  readonly publishedUrlTemplate: string;
  /** HOSTING_TARGET_CNAME: what a custom (sub)domain's CNAME must point at (default: the template's parent domain). */
  readonly targetCname: string;
  /** HOSTING_TARGET_ADDRESSES: the addresses an apex's A/AAAA records must hold (default 127.0.0.1). */
  readonly targetAddresses: readonly string[];
  /** DNS_SERVERS: the resolvers custom-domain checks ask, `ip` or `ip:port` (`[v6]:port`); empty: the system's. */
  readonly dnsServers: readonly string[];
  /** HOSTING_EDGE and Caddy's variables (edge-config.ts). */
  readonly edge: EdgeConfig;
  /** CHROMIUM_PATH: the browser that takes screenshots of published sites. */
  readonly chromiumPath: string;
}

type Env = Readonly<Record<string, string | undefined>>;
type Report = (problem: string) => void;
const blank = (v: string | undefined) => (v === undefined || v.trim() === '' ? null : v.trim());

interface ParsedTemplate {
  readonly template: string;
  readonly protocol: 'http:' | 'https:';
  /** The host after `{slug}.`, e.g. `apps.localhost`. */
  readonly parent: string;
  /** ':3000', or '' for the scheme's default port. */
  readonly port: string;
}

/**
 * Validates PUBLISHED_URL_TEMPLATE: an http(s) origin whose host is `{slug}.` followed by a
 * parent domain of 2+ labels; `{port}` only as the port; no credentials, path, query or fragment.
 */
export function parsePublishedUrlTemplate(raw: string, apiPort: number): { ok: true; value: ParsedTemplate } | { ok: false; problem: string } {
  const fail = (why: string) => ({ ok: false as const, problem: `PUBLISHED_URL_TEMPLATE ${why}, got "${raw}"` });
  const template = raw.trim().replace(/\/$/, '');
  if (template.split('{slug}').length !== 2) return fail('must contain {slug} exactly once');
  if (template.includes('{port}') && !/:\{port\}$/.test(template)) return fail('may use {port} only as the port (…:{port})');
  const filled = template.replace('{port}', String(apiPort));
  let sample: URL;
  try {
    sample = new URL(filled.replace('{slug}', 'sample'));
  } catch {
    return fail('must be an http:// or https:// URL such as http://{slug}.apps.localhost:{port}');
  }
  if (sample.protocol !== 'http:' && sample.protocol !== 'https:') return fail('must be an http:// or https:// URL');
  if (sample.username !== '' || sample.password !== '') return fail('must not contain credentials');
  if (sample.pathname !== '/' || sample.search !== '' || sample.hash !== '') return fail('must be an origin (no path, query or fragment)');
  if (!filled.startsWith(`${sample.protocol}//{slug}.`)) return fail('must start with {slug} as the first label of the host ({slug}.apps.example.com)');
  const parent = sample.hostname.slice('sample.'.length);
  if (parent.split('.').length < 2 && parent !== 'localhost') return fail('must have a parent domain of at least two labels after {slug}');
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(parent)) return fail('must have a valid host name');
  return { ok: true, value: { template: filled, protocol: sample.protocol, parent, port: sample.port === '' ? '' : `:${sample.port}` } };
}

/** Reads the hosting variables, reporting every problem. */
export function parseHostingConfig(env: Env, apiPort: number, report: Report): HostingConfig {
  const raw = blank(env['PUBLISHED_URL_TEMPLATE']) ?? DEFAULT_PUBLISHED_URL_TEMPLATE;
  let parsed = parsePublishedUrlTemplate(raw, apiPort);
  if (!parsed.ok) {
    report(parsed.problem);
    parsed = parsePublishedUrlTemplate(DEFAULT_PUBLISHED_URL_TEMPLATE, apiPort) as { ok: true; value: ParsedTemplate };
  }
  const cnameRaw = blank(env['HOSTING_TARGET_CNAME']);
  let targetCname = parsed.value.parent;
  if (cnameRaw !== null) {
    const cname = parseDomainName(cnameRaw);
    if (cname.ok || /^[a-z0-9-]+(\.[a-z0-9-]+)*\.localhost\.?$/i.test(cnameRaw)) targetCname = cname.ok ? cname.value : cnameRaw.toLowerCase().replace(/\.$/, '');
    else report(`HOSTING_TARGET_CNAME must be a host name such as apps.example.com, got "${cnameRaw}"`);
  }
  const addressesRaw = blank(env['HOSTING_TARGET_ADDRESSES']);
  const targetAddresses = addressesRaw === null ? [...DEFAULT_HOSTING_TARGET_ADDRESSES] : list(addressesRaw).map((a) => a.toLowerCase());
  if (targetAddresses.length === 0 || targetAddresses.some((a) => isIP(a) === 0)) {
    report(`HOSTING_TARGET_ADDRESSES must be a comma-separated list of IP addresses, got "${addressesRaw}"`);
  }
  const serversRaw = blank(env['DNS_SERVERS']);
  const dnsServers = serversRaw === null ? [] : list(serversRaw);
  for (const server of dnsServers) {
    if (!isDnsServer(server)) report(`DNS_SERVERS must be a comma-separated list of ip or ip:port ([ipv6]:port), got "${server}"`);
  }
  const edge = parseEdgeConfig(env, apiPort, report);
  const chromiumPath = blank(env['CHROMIUM_PATH']) ?? '/usr/bin/chromium';
  if (!chromiumPath.startsWith('/')) report(`CHROMIUM_PATH must be an absolute path, got "${chromiumPath}"`);
  return { publishedUrlTemplate: parsed.value.template, targetCname, targetAddresses, dnsServers, edge, chromiumPath };
}

const list = (raw: string) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

function isDnsServer(server: string): boolean {
  const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(server) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(server);
  const host = m ? m[1] : isIP(server) === 6 ? server : undefined;
  const port = m?.[2] === undefined ? 53 : Number(m[2]);
  return host !== undefined && isIP(host) !== 0 && port >= 1 && port <= 65_535;
}

/**
 * The PublishedUrls the use cases get: built from the hosting config, plus the hosts Kiln itself
 * answers on (its public API URL, the web origins, the preview parent domain), none of which
 * may ever be a custom domain.
 */
export function createPublishedUrls(hosting: HostingConfig, ownHosts: readonly string[]): PublishedUrls {
  const parsed = parsePublishedUrlTemplate(hosting.publishedUrlTemplate, 0);
  if (!parsed.ok) throw new Error(parsed.problem);
  const { protocol, parent, port } = parsed.value;
  const own = [...new Set([parent, hosting.targetCname, ...ownHosts.map((h) => h.toLowerCase().replace(/\.$/, ''))].filter((h) => h !== ''))];
  const suffix = `.${parent}`;
  return {
    target: { cname: hosting.targetCname, addresses: [...hosting.targetAddresses] },
    hostFor: (slug) => `${slug.toLowerCase()}${suffix}`,
    urlFor: (host) => `${protocol}//${host.toLowerCase()}${port}`,
    slugOf: (host) => {
      const h = host.toLowerCase().replace(/\.$/, '');
      if (!h.endsWith(suffix)) return null;
      const slug = h.slice(0, -suffix.length);
      return /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(slug) ? slug : null;
    },
    isKilnHost: (host) => {
      const h = host.toLowerCase().replace(/\.$/, '');
      return own.some((o) => h === o || h.endsWith(`.${o}`));
    },
  };
}

/** The CSP source of every Kiln subdomain site (`http://*.apps.localhost:3000`): /project-preview frames them. */
export function publishedFrameSource(hosting: HostingConfig): string {
  const parsed = parsePublishedUrlTemplate(hosting.publishedUrlTemplate, 0);
  if (!parsed.ok) throw new Error(parsed.problem);
  const { protocol, parent, port } = parsed.value;
  return `${protocol}//*.${parent}${port}`;
}

/** Host names of Kiln's own URLs (PUBLIC_API_URL, WEB_ORIGIN, the preview template's parent domain). */
export function ownHostsOf(urls: readonly string[]): string[] {
  const hosts: string[] = [];
  for (const url of urls) {
    try {
      const host = new URL(url.replace(/\{(id|port)\}/g, (_m, name: string) => (name === 'port' ? '1' : 'x'))).hostname;
      // For a template, the parent domain after the per-project label.
      hosts.push(url.includes('{id}') ? host.split('.').slice(1).join('.') : host);
    } catch {
      // Not a URL: nothing to protect.
    }
  }
  return hosts.filter((h) => h !== '' && h !== 'localhost');
}

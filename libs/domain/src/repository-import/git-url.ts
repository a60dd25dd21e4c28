import type { DomainError } from '../shared/domain-error.js';
import { err, ok, type Result } from '../shared/result.js';

/** Longest repository URL accepted. */
export const MAX_GIT_URL_LENGTH = 2048;

/** A public repository's URL, checked by parseGitUrl: https, a public host name, no credentials. */
export interface GitUrl {
  readonly href: string;
  /** `https://host[:port]`: the only origin the clone may reach. */
  readonly origin: string;
  readonly host: string;
}

export type GitUrlRefusal = 'not-a-url' | 'scheme' | 'credentials' | 'private-host' | 'query' | 'no-path' | 'too-long';

export type GitUrlRefused = DomainError<'REPOSITORY.URL_REFUSED'> & { readonly reason: GitUrlRefusal };

const REASONS: Readonly<Record<GitUrlRefusal, string>> = {
  'not-a-url': 'not a URL',
  scheme: 'only https:// repository URLs are supported',
  credentials: 'the URL must not hold a user name or password (only public repositories can be imported)',
  'private-host': 'the host must be a public name, not a local, private or numeric address',
  query: 'the URL must not have a query or a fragment',
  'no-path': 'the URL must name a repository (https://host/owner/name)',
  'too-long': `the URL is longer than ${MAX_GIT_URL_LENGTH} characters`,
};

/** SPEC §8's message for a repository that could not be set up. */
export const setupRepositoryMessage = (error: string): string => `Failed to setup repository: ${error}`;

export const gitUrlRefused = (reason: GitUrlRefusal): GitUrlRefused => ({
  code: 'REPOSITORY.URL_REFUSED',
  reason,
  message: setupRepositoryMessage(REASONS[reason]),
});

/** Test-only: a loopback http:// origin (the local git server) may be allowed explicitly. */
export interface GitUrlOptions {
  readonly allowOrigins?: readonly string[];
}

// A numeric last label is an address in some spelling (1.2.3.4, 0x7f.1): no top-level domain is numeric.
const NUMERIC_HOST = /(^|\.)(0x[0-9a-f]*|\d+)\.?$/i;
const CONTROL = /[\u0000-\u001f\u007f\s]/;
const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home|lan|corp|intranet)$/i;

/**
 * A repository URL a person typed (untrusted): https only, no user or password, no query or
 * fragment, a host that is a public DNS name (no IP literal, no single-label or local name).
 * The names' addresses are checked again where the clone connects (the egress proxy refuses
 * loopback, private and link-local addresses), so DNS cannot point the clone inside.
 */
export function parseGitUrl(raw: string, options: GitUrlOptions = {}): Result<GitUrl, GitUrlRefused> {
  const text = raw.trim();
  if (text.length > MAX_GIT_URL_LENGTH) return err(gitUrlRefused('too-long'));
  // scheme://authority/path?query#fragment (the domain has no URL class; this is RFC 3986's split)
  const parts = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#\\]*)([^?#]*)(\?[^#]*)?(#.*)?$/.exec(text);
  if (parts === null || CONTROL.test(text)) return err(gitUrlRefused('not-a-url'));
  const [, scheme = '', authority = '', path = '', query, fragment] = parts;
  if (scheme.toLowerCase() !== 'https' && scheme.toLowerCase() !== 'http') return err(gitUrlRefused('scheme'));
  const hostPort = /^(?:([^@]*)@)?(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(authority);
  if (hostPort === null) return err(gitUrlRefused(authority.includes('@') ? 'credentials' : 'not-a-url'));
  const [, userInfo, rawHost = '', port] = hostPort;
  const host = rawHost.toLowerCase();
  const origin = `${scheme.toLowerCase()}://${host}${port === undefined ? '' : `:${port}`}`;
  const allowed = options.allowOrigins?.includes(origin) === true;
  if (scheme.toLowerCase() !== 'https' && !allowed) return err(gitUrlRefused('scheme'));
  if (userInfo !== undefined) return err(gitUrlRefused('credentials'));
  if (query !== undefined || fragment !== undefined) return err(gitUrlRefused('query'));
  if (path.replace(/\/+$/, '') === '') return err(gitUrlRefused('no-path'));
  if (/(^|\/)\.\.?(\/|$)/.test(path) || /%(2e|2f|5c|00)/i.test(path)) return err(gitUrlRefused('not-a-url'));
  if (!allowed && (NUMERIC_HOST.test(host) || host.startsWith('[') || !host.includes('.') || LOCAL_NAMES.test(host.replace(/\.$/, '')))) {
    return err(gitUrlRefused('private-host'));
  }
  return ok({ href: `${origin}${path}`, origin, host });
}

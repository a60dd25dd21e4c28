import { type Result, err, ok } from '../shared/result.js';
import type { InvalidSlug } from './hosting.errors.js';

/** A slug is one DNS label: the `{slug}` of PUBLISHED_URL_TEMPLATE. */
export const MAX_SLUG_LENGTH = 63;

/**
 * Names a published site may not take: Kiln's own subdomains (and ones people would mistake for
 * them). The unique index on the slug does the rest.
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'www', 'api', 'app', 'apps', 'admin', 'administrator', 'preview', 'previews', 'mail', 'email', 'smtp', 'imap', 'pop', 'mx', 'ns', 'ns1', 'ns2',
  'kiln', 'static', 'assets', 'cdn', 'auth', 'login', 'signin', 'signup', 'account', 'accounts', 'billing', 'dashboard', 'status', 'health',
  'docs', 'help', 'support', 'blog', 'dev', 'staging', 'test', 'internal', 'root', 'system', 'security', 'ftp', 'webmail', 'localhost',
  'hosting', 'pay', 'payments', 'checkout', 'stripe', 'ws', 'wss', 'git', 'registry', 'npm', 'acme', 'tls', 'ssl',
]);

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const invalid = (message: string): Result<never, InvalidSlug> => err({ code: 'HOSTING.INVALID_SLUG', message });

/**
 * A slug people chose: 1–63 lower-case letters, digits and hyphens, not starting or ending with
 * a hyphen, without hyphens in the 3rd and 4th places (`xn--`-style encodings), and not reserved.
 * Trimmed and lower-cased first; anything else (dots, slashes, spaces, Unicode) is refused.
 */
export function parseSiteSlug(input: string): Result<string, InvalidSlug> {
  if (typeof input !== 'string' || input.length > 256) return invalid('A site name can be at most 63 characters.');
  const slug = input.trim().toLowerCase();
  if (slug === '') return invalid('Choose a site name.');
  if (slug.length > MAX_SLUG_LENGTH) return invalid('A site name can be at most 63 characters.');
  if (!SLUG.test(slug)) return invalid('A site name may use only letters, digits and hyphens, and cannot start or end with a hyphen.');
  if (slug.slice(2, 4) === '--') return invalid('A site name cannot have hyphens in its 3rd and 4th characters.');
  if (RESERVED_SLUGS.has(slug)) return invalid(`"${slug}" is reserved. Choose another site name.`);
  return ok(slug);
}

/**
 * The slug a project's site gets by default: the project's own slug (already `name-idsuffix`,
 * unique per project), cut to one label. Always valid: characters outside the label alphabet
 * become hyphens, reserved or encoding-like results get a `site-` prefix.
 */
export function defaultSiteSlug(projectSlug: string): string {
  let slug = projectSlug
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/^-+|-+$/g, '');
  if (slug === '') slug = 'site';
  if (slug.slice(2, 4) === '--' || RESERVED_SLUGS.has(slug)) slug = `site-${slug}`.slice(0, MAX_SLUG_LENGTH).replace(/-+$/g, '');
  const checked = parseSiteSlug(slug);
  return checked.ok ? checked.value : 'site';
}

import { type Result, err, ok } from '../shared/result.js';
import type { InvalidDomain } from './hosting.errors.js';
import { punycodeEncode } from './punycode.js';
import type { PublishedUrls } from './published-urls.js';

/** DNS limits (RFC 1035): a label of at most 63 octets, a name of at most 253 (without the trailing dot). */
export const MAX_LABEL_LENGTH = 63;
export const MAX_HOST_LENGTH = 253;
/** Longer input is refused before any work is done on it. */
const MAX_INPUT_LENGTH = 1024;

/** Top-level names that never reach the public DNS: a certificate for them cannot be issued. */
const PRIVATE_TLDS = new Set(['localhost', 'local', 'localdomain', 'internal', 'invalid', 'onion', 'arpa', 'lan', 'home']);

const invalid = (message: string): Result<never, InvalidDomain> => err({ code: 'HOSTING.INVALID_DOMAIN', message });

const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
/** What WHATWG URL treats as an IPv4 part: a last label like this makes the whole host an address. */
const NUMERIC_LABEL = /^(?:[0-9]+|0x[0-9a-f]*)$/;
/** A Unicode label may hold letters, marks and digits of any script, and hyphens. */
const UNICODE_LABEL_CHARS = /^[\p{L}\p{M}\p{N}-]+$/u;
/**
 * Cyrillic and Greek letters that look like Latin ones (Unicode's confusables for a–z). A label
 * made only of these (`аре`, `рс`) imitates a Latin name as well as a mixed one does.
 */
const LATIN_LOOK_ALIKES = /^[аеорсухіјѕԁһӏԛԝοαινκρχυϲε\p{N}-]+$/u;
const LATIN = /\p{Script=Latin}/u;
/** Letters of a script other than Latin; digits, hyphens and combining marks belong to none. */
const OTHER_SCRIPT = /(?!\p{Script=Latin})\p{L}/u;

/**
 * A label that imitates a Latin name (a homograph): Latin letters mixed with letters of another
 * script (`pаypal` with a Cyrillic а), or Cyrillic/Greek letters that all look Latin (`аре`).
 * Labels wholly in another script (`пример`, `日本語`) and Latin with accents (`bücher`) are fine.
 */
export function isLookAlikeLabel(label: string): boolean {
  if (/^[\x00-\x7f]*$/.test(label)) return false;
  if (LATIN.test(label) && OTHER_SCRIPT.test(label)) return true;
  return !LATIN.test(label) && /\p{L}/u.test(label) && LATIN_LOOK_ALIKES.test(label);
}

/** Full stops other scripts use, which IDNA reads as dots. */
const IDEOGRAPHIC_DOTS = /[\u3002\uff0e\uff61]/g;

/**
 * One label as DNS carries it: ASCII letters, digits and hyphens stay; any other letter makes
 * the label punycode (`xn--…`). Null when the label is not allowed.
 */
function asciiLabel(label: string): string | null {
  if (label === '') return null;
  const ascii = /^[\x00-\x7f]*$/.test(label) ? label : null;
  let out: string;
  if (ascii !== null) out = ascii;
  else {
    if (!UNICODE_LABEL_CHARS.test(label)) return null;
    const encoded = punycodeEncode(label);
    if (encoded === null) return null;
    out = `xn--${encoded}`;
  }
  if (out.length > MAX_LABEL_LENGTH || !LDH_LABEL.test(out)) return null;
  // Labels with hyphens in the 3rd and 4th places are reserved for encodings (RFC 5891 §4.2.3.1);
  // only punycode's own prefix is accepted.
  if (out.slice(2, 4) === '--' && !out.startsWith('xn--')) return null;
  return out;
}

/**
 * A custom domain as people type it → the host Kiln stores: trimmed, lower-case, one trailing
 * dot dropped, internationalised labels as punycode. Homographs are refused: a label mixing
 * Latin letters with another script's (a Cyrillic `а` in `pаypal.com`), or made only of
 * Cyrillic/Greek letters that look Latin (isLookAlikeLabel).
 *
 * Refused: IP addresses in any form (dotted, decimal, hex, octal, IPv6 with or without
 * brackets), `localhost` and other names that never reach public DNS, single labels, ports,
 * paths, user info, labels over 63 characters, names over 253, characters outside
 * letters/digits/hyphen after conversion.
 */
export function parseDomainName(input: string): Result<string, InvalidDomain> {
  if (typeof input !== 'string' || input.length > MAX_INPUT_LENGTH) return invalid('That domain name is too long.');
  let host = input.trim().toLowerCase().normalize('NFKC').toLowerCase().replace(IDEOGRAPHIC_DOTS, '.');
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host === '') return invalid('Enter a domain name such as app.example.com.');
  if (/[[\]:]/.test(host)) return invalid('An IP address (or a port) cannot be a custom domain: enter a domain name such as app.example.com.');
  if (/[/\\?#@%\s]/u.test(host)) return invalid('Enter only the domain name (such as app.example.com), without a scheme, path or spaces.');
  const labels = host.split('.');
  const last = labels[labels.length - 1] as string;
  if (NUMERIC_LABEL.test(last)) return invalid('An IP address cannot be a custom domain: enter a domain name such as app.example.com.');
  if (labels.length < 2) return invalid('Enter a full domain name such as app.example.com.');
  const ascii: string[] = [];
  for (const label of labels) {
    if (label.length > MAX_INPUT_LENGTH / 4) return invalid('Each part of a domain name can be at most 63 characters.');
    if (isLookAlikeLabel(label)) {
      return invalid(
        `"${label.slice(0, 63)}" uses letters of one alphabet that look like another's (such as a Cyrillic "а" for a Latin "a"), the trick used to imitate other sites' names, so it cannot be a custom domain.`,
      );
    }
    const converted = asciiLabel(label);
    if (converted === null) {
      return invalid(
        label === ''
          ? 'A domain name cannot have empty parts (two dots in a row).'
          : `"${label.slice(0, 63)}" is not a valid part of a domain name: use letters, digits and hyphens (not at the start or end), at most 63 characters.`,
      );
    }
    ascii.push(converted);
  }
  const result = ascii.join('.');
  if (result.length > MAX_HOST_LENGTH) return invalid('A domain name can be at most 253 characters.');
  if (PRIVATE_TLDS.has(ascii[ascii.length - 1] as string)) return invalid('That name is not on the public internet, so it cannot be a custom domain.');
  return ok(result);
}

/** A custom domain for a site: a valid public name that is not one of Kiln's own hosts. */
export function parseCustomDomain(input: string, urls: PublishedUrls): Result<string, InvalidDomain> {
  const parsed = parseDomainName(input);
  if (!parsed.ok) return parsed;
  if (urls.isKilnHost(parsed.value)) return invalid("That name belongs to Kiln itself, so it cannot be a custom domain.");
  return parsed;
}

/**
 * Whether a host is an apex (a registered name such as `example.com`, where DNS allows no
 * CNAME): Kiln counts labels — exactly two is an apex. Names under multi-label public suffixes
 * (`shop.co.uk`) are treated as subdomains; their owners get a CNAME, which works everywhere
 * except at a true apex (docs/decisions.md).
 */
export const isApex = (host: string): boolean => host.split('.').length === 2;

import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { TestPublishedUrls } from '../testing/in-memory-hosting-repository.js';
import { isApex, parseCustomDomain, parseDomainName } from './domain-name.js';
import { punycodeEncode } from './punycode.js';

const urls = new TestPublishedUrls();
const host = (input: string) => {
  const r = parseDomainName(input);
  return r.ok ? r.value : null;
};
/** The platform's own IDNA (UTS 46) conversion, as a second opinion (the domain's types know no URL). */
const PlatformUrl = (globalThis as unknown as { URL: new (input: string) => { hostname: string } }).URL;
const platform = (input: string): string | null => {
  try {
    return new PlatformUrl(`http://${input}/`).hostname;
  } catch {
    return null;
  }
};

describe('punycode (RFC 3492)', () => {
  it.each([
    ['bücher', 'bcher-kva'],
    ['münchen', 'mnchen-3ya'],
    ['日本語', 'wgv71a119e'],
    ['pаypal', 'pypal-4ve'],
    ['abc', 'abc-'],
  ])('%s → %s', (label, encoded) => {
    expect(punycodeEncode(label)).toBe(encoded);
  });

  it('agrees with the platform URL parser on labels of many scripts', () => {
    const letter = fc.constantFrom(...'abcxyz019-äöüéñçøåаеорсхуіјαβγ日本語中文한국אבعربی'.split(''));
    fc.assert(
      fc.property(fc.array(letter, { minLength: 1, maxLength: 20 }), (chars) => {
        const label = chars.join('');
        if (/^[\x20-\x7e]*$/.test(label) || label.startsWith('-') || label.endsWith('-')) return;
        const ours = host(`${label}.com`);
        const theirs = platform(`${label}.com`);
        // Bidi rules may make the platform refuse a mixed label; where both accept, they agree.
        if (ours !== null && theirs !== null) expect(ours).toBe(theirs);
      }),
      { numRuns: 500 },
    );
  });
});

describe('parseDomainName', () => {
  it('normalises: trim, lower-case, one trailing dot, full-width and ideographic dots, IDN as punycode', () => {
    expect(host('  App.Example.COM. ')).toBe('app.example.com');
    expect(host('ＳＨＯＰ．example。com')).toBe('shop.example.com');
    expect(host('bücher.de')).toBe('xn--bcher-kva.de');
    expect(host('xn--bcher-kva.de')).toBe('xn--bcher-kva.de');
  });

  it('refuses look-alikes: Latin mixed with another script, or Cyrillic/Greek that only looks Latin', () => {
    for (const fake of ['pаypal.com', 'gооgle.com', 'аpple.com', 'shop.pаypal.com', 'аре.com', 'ѕсоре.net', 'pαypal.com']) {
      const r = parseDomainName(fake);
      expect(r.ok ? r.value : r.error.message).toMatch(/letters of one alphabet that look like another's/);
    }
  });

  it('accepts names wholly in one script, Latin with accents, and digits beside any script', () => {
    expect(host('пример.рф')).toBe('xn--e1afmkfd.xn--p1ai');
    expect(host('日本語.jp')).toBe('xn--wgv71a119e.jp');
    expect(host('bücher.de')).toBe('xn--bcher-kva.de');
    expect(host('магазин24.com')).toBe(platform('магазин24.com'));
    expect(host('нет.рф')).toBe(platform('нет.рф')); // н is no Latin look-alike
  });

  it.each([
    ['127.0.0.1'],
    ['127.1'],
    ['0x7f.0.0.1'],
    ['0x7f000001'],
    ['2130706433'],
    ['017700000001'],
    ['192.168.0.1.'],
    ['[::1]'],
    ['::1'],
    ['[2001:db8::1]'],
    ['2001:db8::1'],
    ['::ffff:127.0.0.1'],
    ['localhost'],
    ['LOCALHOST.'],
    ['app.localhost'],
    ['a.b.localhost'],
    ['printer.local'],
    ['com'],
    ['example'],
    [''],
    ['   '],
    ['.'],
    ['a..b.com'],
    ['-a.com'],
    ['a-.com'],
    ['ab--c.com'],
    ['exa_mple.com'],
    ['exa mple.com'],
    ['example.com/path'],
    ['example.com:8080'],
    ['user@example.com'],
    ['http://example.com'],
    ['example.com?x=1'],
    ['💩.la'],
    ['a\u0000b.com'],
    [`${'a'.repeat(64)}.com`],
    [`${'a'.repeat(300)}.com`],
    [`${Array.from({ length: 50 }, () => 'abcde').join('.')}.com`],
  ])('refuses %j', (input) => {
    const r = parseDomainName(input);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('HOSTING.INVALID_DOMAIN');
      expect(r.error.message.length).toBeGreaterThan(10);
    }
  });

  it("refuses Kiln's own hosts as custom domains", () => {
    for (const input of ['kiln.test', 'apps.kiln.test', 'pantry.apps.kiln.test', 'API.KILN.TEST.']) {
      const r = parseCustomDomain(input, urls);
      expect(!r.ok && r.error.code).toBe('HOSTING.INVALID_DOMAIN');
    }
    expect(parseCustomDomain('shop.example.com', urls)).toEqual({ ok: true, value: 'shop.example.com' });
  });

  it('anything accepted is a lower-case LDH name of 2+ labels, ≤ 63 per label, ≤ 253 in all, never an address', () => {
    const chunk = fc.stringMatching(/^[a-zA-Z0-9.\-_:[\]/ äаü@]{0,20}$/);
    fc.assert(
      fc.property(fc.array(chunk, { maxLength: 15 }), (parts) => {
        const r = parseDomainName(parts.join(''));
        if (!r.ok) return;
        const labels = r.value.split('.');
        expect(labels.length).toBeGreaterThanOrEqual(2);
        expect(r.value.length).toBeLessThanOrEqual(253);
        for (const label of labels) expect(label).toMatch(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/);
        expect(labels[labels.length - 1]).not.toMatch(/^(?:\d+|0x[0-9a-f]*)$/);
        // Idempotent: the stored form parses to itself.
        expect(parseDomainName(r.value)).toEqual(r);
      }),
      { numRuns: 1000 },
    );
  });

  it('every IPv4 address in dotted, decimal or hex form is refused', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.ipV4Extended(), fc.ipV6(), (v4, v4x, v6) => {
        expect(parseDomainName(v4).ok).toBe(false);
        expect(parseDomainName(v4x).ok).toBe(false);
        expect(parseDomainName(v6).ok).toBe(false);
        expect(parseDomainName(`[${v6}]`).ok).toBe(false);
      }),
    );
  });

  const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,20}[a-z0-9])?$/).filter((l) => l.slice(2, 4) !== '--');

  it("no name under Kiln's own hosts, in any case or with a trailing dot, is ever a custom domain", () => {
    fc.assert(
      fc.property(fc.array(label, { minLength: 0, maxLength: 3 }), fc.constantFrom('kiln.test', 'apps.kiln.test'), fc.boolean(), (labels, parent, upper) => {
        const name = [...labels, parent].join('.') + (upper ? '.' : '');
        const r = parseCustomDomain(upper ? name.toUpperCase() : name, urls);
        expect(!r.ok && r.error.code).toBe('HOSTING.INVALID_DOMAIN');
      }),
    );
  });

  it('a label of 64 to 300 characters is refused wherever it stands', () => {
    fc.assert(
      fc.property(fc.integer({ min: 64, max: 300 }), fc.integer({ min: 0, max: 2 }), (length, at) => {
        const labels = ['shop', 'example', 'com'];
        labels.splice(at, 0, 'a'.repeat(length));
        expect(parseDomainName(labels.join('.')).ok).toBe(false);
      }),
    );
  });

  it('a Latin name with any letter swapped for a Cyrillic or Greek look-alike is refused', () => {
    const homoglyphs: Record<string, string> = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', x: 'х', y: 'у', i: 'і' };
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,6}[aeopcxyi][a-z]{0,6}$/), fc.nat(), fc.constantFrom('com', 'net', 'org'), (word, pick, tld) => {
        const spots = [...word].flatMap((ch, i) => (homoglyphs[ch] === undefined ? [] : [i]));
        const at = spots[pick % spots.length] as number;
        const fake = `${word.slice(0, at)}${homoglyphs[word[at] as string]}${word.slice(at + 1)}.${tld}`;
        const r = parseDomainName(fake);
        expect(r.ok).toBe(false);
      }),
    );
  });

  it('apex: exactly two labels', () => {
    expect(isApex('example.com')).toBe(true);
    expect(isApex('www.example.com')).toBe(false);
    expect(isApex('shop.co.uk')).toBe(false);
  });
});

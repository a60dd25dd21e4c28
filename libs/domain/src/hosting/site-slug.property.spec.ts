import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { slugFor } from '../projects/project.entity.js';
import { RESERVED_SLUGS, defaultSiteSlug, parseSiteSlug } from './site-slug.js';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

describe('site slugs', () => {
  it('accepts a DNS label, lower-cased and trimmed', () => {
    expect(parseSiteSlug('pantry')).toEqual({ ok: true, value: 'pantry' });
    expect(parseSiteSlug('  My-Shop-2 ')).toEqual({ ok: true, value: 'my-shop-2' });
    expect(parseSiteSlug('a').ok).toBe(true);
    expect(parseSiteSlug('a'.repeat(63)).ok).toBe(true);
  });

  it.each([
    [''],
    ['a'.repeat(64)],
    ['-shop'],
    ['shop-'],
    ['xn--shop'],
    ['ab--cd'],
    ['my.shop'],
    ['../admin'],
    ['shop/x'],
    ['shop\\x'],
    ['shop%2f'],
    ['sh op'],
    ['shöp'],
    ['shop_1'],
    ['www'],
    ['API'],
    ['preview'],
    ['kiln'],
    ['a'.repeat(300)],
  ])('refuses %j', (input) => {
    const r = parseSiteSlug(input);
    expect(!r.ok && r.error.code).toBe('HOSTING.INVALID_SLUG');
  });

  it('whatever it accepts is one label, not reserved, without an encoding prefix', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-zA-Z0-9\-./_ %\\]{0,70}$/), (input) => {
        const r = parseSiteSlug(input);
        if (!r.ok) return;
        expect(r.value).toMatch(LABEL);
        expect(RESERVED_SLUGS.has(r.value)).toBe(false);
        expect(r.value.slice(2, 4)).not.toBe('--');
      }),
      { numRuns: 1000 },
    );
  });

  it('a slug with a dot, slash, backslash, percent or inner space is refused (outer spaces are trimmed)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9]{1,20}$/), fc.constantFrom('.', '/', '\\', '%2f', ' ', '..', '%', '?', '#', ':'), fc.stringMatching(/^[a-z0-9]{1,20}$/), (a, bad, b) => {
        const r = parseSiteSlug(`${a}${bad}${b}`);
        expect(!r.ok && r.error.code).toBe('HOSTING.INVALID_SLUG');
      }),
    );
  });

  it('the default slug of any project is a valid, non-reserved slug', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), fc.uuid(), (name, id) => {
        const slug = defaultSiteSlug(slugFor(name, id));
        expect(parseSiteSlug(slug)).toEqual({ ok: true, value: slug });
      }),
      { numRuns: 500 },
    );
    expect(defaultSiteSlug('www')).toBe('site-www');
    expect(defaultSiteSlug('my-todo-app-3f2a9c1b7d4e')).toBe('my-todo-app-3f2a9c1b7d4e');
    expect(defaultSiteSlug('x'.repeat(70))).toHaveLength(63);
  });
});

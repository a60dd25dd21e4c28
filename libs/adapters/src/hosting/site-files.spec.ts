import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { isValidHostingId, isValidSiteHost, parsePointer, pointerTarget } from './hosting-paths.js';
import { contentTypeOf, isHashedAsset, requestSegments } from './site-files.js';
import { chooseEncoding, matchesTag } from './static-site-server.js';

describe('requestSegments', () => {
  it('decodes a path into names; a trailing slash is the folder', () => {
    expect(requestSegments('/')).toEqual([]);
    expect(requestSegments('/assets/index-B2x9_kQa.js?v=1#x')).toEqual(['assets', 'index-B2x9_kQa.js']);
    expect(requestSegments('/docs/')).toEqual(['docs']);
    expect(requestSegments('/caf%C3%A9%20menu')).toEqual(['café menu']);
  });

  it.each([
    ['..', '/../etc/passwd'],
    ['encoded ..', '/%2e%2e/%2e%2e/etc/passwd'],
    ['mixed encoded ..', '/.%2E/x'],
    ['.', '/./index.html'],
    ['encoded NUL', '/index.html%00.js'],
    ['raw NUL', '/index\0.html'],
    ['backslash', '/..\\..\\etc\\passwd'],
    ['encoded backslash', '/..%5c..%5cetc'],
    ['encoded slash', '/assets%2f..%2f..%2fx'],
    ['empty name', '/a//b'],
    ['bad escape', '/%E0%A4%A'],
    ['not absolute', 'index.html'],
    ['absolute form', 'http://evil.test/x'],
    ['control character', '/a%0d%0aSet-Cookie:x'],
    ['too deep', `/${'a/'.repeat(40)}x`],
  ])('refuses %s', (_what, url) => {
    expect(requestSegments(url)).toBeNull();
  });

  it('never answers a name that could leave the folder, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('/', '.', '%', '2', 'e', 'E', 'f', '5', 'c', '0', 'a', '\\', '\0') }), (tail) => {
        const names = requestSegments(`/${tail}`);
        if (names === null) return;
        for (const name of names) {
          expect(name).not.toMatch(/^\.{1,2}$/);
          expect(name).not.toMatch(/[/\\\0]/);
          expect(name).not.toBe('');
        }
      }),
    );
  });
});

describe('hosting paths', () => {
  it('takes lower-case LDH host names only', () => {
    for (const ok of ['shop.apps.localhost', 'xn--caf-dma.example', 'a', 'a-b.c0']) expect(isValidSiteHost(ok)).toBe(true);
    for (const bad of ['Shop.apps.localhost', '..', '.', 'a/b', 'a..b', '-a.b', 'a-.b', 'a_b.c', '', 'a.b.', `${'a'.repeat(64)}.b`, '[::1]', '127.0.0.1:80']) {
      expect(isValidSiteHost(bad)).toBe(false);
    }
  });

  it('reads back only pointers it writes', () => {
    expect(parsePointer(pointerTarget('p-1', 'r_2'))).toEqual({ projectId: 'p-1', releaseId: 'r_2' });
    for (const bad of ['/etc', '../releases/p', '../releases/../x/y', '../../releases/p/r', '../releases/p/r/x', '../other/p/r', '../releases/.tmp/r']) {
      expect(parsePointer(bad)).toBeNull();
    }
    expect(isValidHostingId('..')).toBe(false);
    expect(isValidHostingId('a/b')).toBe(false);
  });
});

describe('content types and caching', () => {
  it('names the types browsers need', () => {
    expect(contentTypeOf('index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeOf('a.JS')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('a.css')).toBe('text/css; charset=utf-8');
    expect(contentTypeOf('a.svg')).toBe('image/svg+xml; charset=utf-8');
    expect(contentTypeOf('a.woff2')).toBe('font/woff2');
    expect(contentTypeOf('Makefile')).toBe('application/octet-stream');
  });

  it("calls Vite's hashed assets immutable, nothing else", () => {
    expect(isHashedAsset(['assets', 'index-B2x9_kQa.js'])).toBe(true);
    expect(isHashedAsset(['assets', 'logo-3f2a9c1d.svg'])).toBe(true);
    expect(isHashedAsset(['assets', 'logo.svg'])).toBe(false);
    expect(isHashedAsset(['index-B2x9_kQa.js'])).toBe(false);
    expect(isHashedAsset(['favicon.ico'])).toBe(false);
  });
});

describe('negotiation', () => {
  const both = { gzip: Buffer.from('g'), br: Buffer.from('b') };
  it('prefers brotli, then gzip, honours q=0', () => {
    expect(chooseEncoding('gzip, deflate, br', both)).toBe('br');
    expect(chooseEncoding('gzip', both)).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5', both)).toBe('gzip');
    expect(chooseEncoding('identity', both)).toBe('identity');
    expect(chooseEncoding(undefined, both)).toBe('identity');
    expect(chooseEncoding('br', { gzip: null, br: null })).toBe('identity');
    expect(chooseEncoding('*', both)).toBe('gzip');
  });

  it('matches an ETag of any encoding of the content, weak or not', () => {
    expect(matchesTag('"abc"', 'abc')).toBe(true);
    expect(matchesTag('W/"abc-br"', 'abc')).toBe(true);
    expect(matchesTag('"x", "abc-gz"', 'abc')).toBe(true);
    expect(matchesTag('*', 'abc')).toBe(true);
    expect(matchesTag('"abcd"', 'abc')).toBe(false);
    expect(matchesTag(undefined, 'abc')).toBe(false);
  });
});

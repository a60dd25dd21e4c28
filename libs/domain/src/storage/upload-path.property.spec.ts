import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { normalizeUploadPath } from './upload-path.js';

// Slash-heavy paths so leading, trailing and repeated slashes actually occur.
const path = fc
  .array(fc.oneof(fc.constant('/'), fc.constant('//'), fc.string({ maxLength: 5 })), { maxLength: 12 })
  .map((parts) => parts.join(''));

describe('normalizeUploadPath properties', () => {
  it('is idempotent', () => {
    fc.assert(fc.property(path, (p) => expect(normalizeUploadPath(normalizeUploadPath(p))).toBe(normalizeUploadPath(p))));
  });

  it("never starts or ends with '/' and never contains '//'", () => {
    fc.assert(
      fc.property(path, (p) => {
        const n = normalizeUploadPath(p);
        expect(n.startsWith('/')).toBe(false);
        expect(n.endsWith('/')).toBe(false);
        expect(n.includes('//')).toBe(false);
      }),
    );
  });

  it('keeps the non-empty segments, in order', () => {
    fc.assert(
      fc.property(path, (p) => {
        const segments = p.split('/').filter((s) => s !== '');
        expect(normalizeUploadPath(p)).toBe(segments.join('/'));
        expect(normalizeUploadPath(p).replaceAll('/', '')).toBe(p.replaceAll('/', ''));
      }),
    );
  });
});

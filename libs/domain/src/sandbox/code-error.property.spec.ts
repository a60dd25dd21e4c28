import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { AI_SUPPORT_DIR, WARNING_KEYWORDS, classifyErrorSeverity, isIgnoredErrorFile } from './code-error.js';

/** Randomly upper- or lower-cases each character. */
const anyCase = (word: string) =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((upper) => [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''));

const keyword = fc.constantFrom(...WARNING_KEYWORDS).chain(anyCase);
// Text that cannot spell any keyword: each contains an 'e' or a 'w' ('warning').
const neutral = fc.string().map((s) => s.replace(/[ew]/gi, ''));

describe('code error properties', () => {
  it('a message mentioning a keyword in any case, anywhere, is a warning', () => {
    fc.assert(
      fc.property(fc.string(), keyword, fc.string(), (before, word, after) => {
        expect(classifyErrorSeverity(before + word + after)).toBe('warning');
      }),
    );
  });

  it('a message that mentions no keyword is an error', () => {
    fc.assert(fc.property(neutral, (message) => expect(classifyErrorSeverity(message)).toBe('error')));
  });

  const segment = fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/);
  const segments = fc.array(segment, { maxLength: 4 });

  it('every file under src/.kiln is ignored, whatever the prefix', () => {
    const prefix = fc.constantFrom('', './', '/', '/app/', '/home/user/project/');
    fc.assert(
      fc.property(prefix, segments, segment, (start, dirs, file) => {
        const path = `${start}${[...dirs, AI_SUPPORT_DIR].join('/')}/${file}.ts`;
        expect(isIgnoredErrorFile(path)).toBe(true);
      }),
    );
  });

  it('a path with no .kiln folder is never ignored', () => {
    fc.assert(
      fc.property(segments, segment, (dirs, file) => {
        expect(isIgnoredErrorFile(['src', ...dirs, `${file}.ts`].join('/'))).toBe(false);
      }),
    );
  });
});

import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { CHUNK_LINES, MAX_CHUNK_CHARS, chunkFile } from './chunking.js';

const line = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ minLength: 500, maxLength: 5_000 })).map((s) => s.replace(/\n/g, ' '));
const content = fc.array(line, { maxLength: 200 }).map((ls) => ls.join('\n'));

describe('chunkFile properties', () => {
  it('covers every line, keeps chunks small, numbers them in order', () => {
    fc.assert(
      fc.property(content, (text) => {
        const chunks = chunkFile('src/file.ts', text);
        expect(chunks.length).toBeGreaterThan(0);
        chunks.forEach((chunk, i) => {
          expect(chunk.index).toBe(i);
          expect(chunk.content.length).toBeLessThanOrEqual(MAX_CHUNK_CHARS);
          expect(chunk.content.split('\n').length).toBeLessThanOrEqual(CHUNK_LINES);
          expect(chunk.searchText.startsWith('src file ts')).toBe(true);
        });
        // Every line of the file is in some chunk (long lines across consecutive pieces).
        const joined = chunks.map((c) => c.content).join('');
        for (const l of text.split('\n')) expect(joined.includes(l.slice(0, MAX_CHUNK_CHARS))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('is deterministic', () => {
    fc.assert(fc.property(content, (text) => expect(chunkFile('a.ts', text)).toEqual(chunkFile('a.ts', text))), { numRuns: 30 });
  });
});

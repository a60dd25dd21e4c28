import { describe, expect, it } from '@jest/globals';
import { SNIPPET_MAX_CHARS, bestPerFile, snippetFor } from './ranking.js';

describe('snippetFor', () => {
  const content = 'import x from "y";\n\nexport function Header() {\n  return <header />;\n}\n';

  it('starts at the line holding a query term, whole lines, trailing spaces trimmed', () => {
    expect(snippetFor(content, ['header'])).toBe('export function Header() {\n  return <header />;\n}');
  });

  it('prefers the line holding the most distinct query terms', () => {
    expect(snippetFor('value one\nvalue two\nvalue7 target\n', ['value', 'target'], 14)).toBe('value7 target');
  });

  it('starts at the chunk when only the path matched, skipping blank lines', () => {
    expect(snippetFor('\n\nconst a = 1;   \n', ['nomatch'])).toBe('const a = 1;');
  });

  it('fits the limit, cutting a single long line with an ellipsis', () => {
    expect(snippetFor('aaa\nbbb\nccc', ['bbb'], 7)).toBe('bbb\nccc');
    expect(snippetFor('aaa\nbbb\nccc', ['bbb'], 6)).toBe('bbb');
    const long = snippetFor(`needle ${'x'.repeat(1000)}`, ['needle']);
    expect(long).toHaveLength(SNIPPET_MAX_CHARS);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('bestPerFile', () => {
  it('keeps each file’s best chunk, sorts by score then path, drops non-positive scores, applies the limit', () => {
    const scored = [
      { path: 'b.ts', index: 0, content: 'b0 term', score: 1 },
      { path: 'b.ts', index: 1, content: 'b1 term', score: 3 },
      { path: 'a.ts', index: 0, content: 'a0 term', score: 3 },
      { path: 'c.ts', index: 0, content: 'c0', score: 0 },
      { path: 'd.ts', index: 0, content: 'd0 term', score: 2 },
    ];
    expect(bestPerFile(scored, ['term'], 10)).toEqual([
      { path: 'a.ts', score: 3, snippet: 'a0 term' },
      { path: 'b.ts', score: 3, snippet: 'b1 term' },
      { path: 'd.ts', score: 2, snippet: 'd0 term' },
    ]);
    expect(bestPerFile(scored, ['term'], 1)).toHaveLength(1);
  });
});

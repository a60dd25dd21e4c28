import { describe, expect, it } from '@jest/globals';
import { queryTerms, searchTerms } from './search-terms.js';

describe('searchTerms', () => {
  it.each([
    ['useAuthStore', ['useauthstore', 'use', 'auth', 'store']],
    ['user_id', ['userid', 'user', 'id']],
    ['parseHTTPResponse2', ['parsehttpresponse2', 'parse', 'http', 'response']],
    ['MAX_RETRY_COUNT', ['maxretrycount', 'max', 'retry', 'count']],
    ['h1 h2', ['h1', 'h2']],
    ['src/components/PricingTable.tsx', ['src', 'components', 'pricingtable', 'pricing', 'table', 'tsx']],
    ['Café crème', ['café', 'crème']],
    // PostgreSQL's parser reads a leading number in scientific notation as its own token.
    ['12e3px 1E5ab3 0e5в 1e5 x1e5y', ['12e3', 'px', '12', 'px', '1e5', 'ab3', 'ab', '0e5', '1e5', 'x1e5y']],
  ])('%p → %p', (text, terms) => {
    expect(searchTerms(text)).toEqual(terms);
  });

  it('keeps repeats (term frequency) and drops stop words, single characters and very long runs', () => {
    expect(searchTerms('const the invoice = invoice; x')).toEqual(['invoice', 'invoice']);
    expect(searchTerms(`token ${'a'.repeat(41)}`)).toEqual(['token']);
  });

  it('answers only letters and digits (safe inside a full-text query)', () => {
    for (const term of searchTerms("a|b & c:* !d <-> 'e' (f) \\g $h %i")) expect(term).toMatch(/^[\p{L}\p{N}]+$/u);
  });

  it('queryTerms are distinct, in first-seen order', () => {
    expect(queryTerms('Header header HEADER footer')).toEqual(['header', 'footer']);
    expect(queryTerms('the a to')).toEqual([]);
  });
});

import { describe, expect, it } from '@jest/globals';
import { DEFAULT_VECTOR_QUERY_LIMIT } from './vector-index.port.js';
import { vectorQueryLimit } from './vector-query.js';

describe('vectorQueryLimit (SPEC §7, §9)', () => {
  it('defaults to 10', () => {
    expect(DEFAULT_VECTOR_QUERY_LIMIT).toBe(10);
    expect(vectorQueryLimit()).toEqual({ ok: true, value: 10 });
    expect(vectorQueryLimit(null)).toEqual({ ok: true, value: 10 });
  });

  it.each([[1], [25]])('keeps %p', (limit) => {
    expect(vectorQueryLimit(limit)).toEqual({ ok: true, value: limit });
  });

  it.each([[0], [-1], [2.5], [Number.NaN]])('rejects %p', (limit) => {
    expect(vectorQueryLimit(limit)).toEqual({
      ok: false,
      error: { code: 'VECTOR.INVALID_LIMIT', message: `A query limit must be a positive whole number, got ${limit}`, limit },
    });
  });
});

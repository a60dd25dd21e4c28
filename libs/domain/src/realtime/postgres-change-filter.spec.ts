import { describe, expect, it } from '@jest/globals';
import { concerns, matchesFilter, parseChangeFilter, parseChangeSubscription } from './postgres-change-filter.js';

describe('postgres_changes filters', () => {
  it('parses every operator realtime-js can send', () => {
    expect(parseChangeFilter('id=eq.1')).toEqual({ ok: true, value: { column: 'id', op: 'eq', values: ['1'] } });
    for (const op of ['neq', 'lt', 'lte', 'gt', 'gte']) expect(parseChangeFilter(`n=${op}.5`)).toMatchObject({ ok: true, value: { op } });
    expect(parseChangeFilter('status=in.(open, "done",x)')).toEqual({ ok: true, value: { column: 'status', op: 'in', values: ['open', 'done', 'x'] } });
    expect(parseChangeFilter('title=eq.a=b.c')).toMatchObject({ ok: true, value: { column: 'title', values: ['a=b.c'] } });
  });

  it('refuses malformed filters with INVALID_FILTER', () => {
    for (const bad of ['id', 'id=like.x', 'id=eq', '1x=eq.1', 'a;drop=eq.1', 'n=in.1,2', `id=eq.${'x'.repeat(2000)}`, `n=in.(${Array(101).fill('1').join(',')})`]) {
      expect(parseChangeFilter(bad)).toMatchObject({ ok: false, error: { code: 'REALTIME.INVALID_FILTER' } });
    }
  });

  it('matches rows as PostgreSQL would: numbers numerically, text as text, null never', () => {
    const f = (text: string) => {
      const p = parseChangeFilter(text);
      if (!p.ok) throw new Error(p.error.message);
      return p.value;
    };
    expect(matchesFilter(f('id=eq.10'), { id: 10 })).toBe(true);
    expect(matchesFilter(f('id=gt.9'), { id: 10 })).toBe(true);
    expect(matchesFilter(f('id=lt.9'), { id: 10 })).toBe(false);
    expect(matchesFilter(f('id=lte.10'), { id: 10 })).toBe(true);
    expect(matchesFilter(f('id=gte.11'), { id: 10 })).toBe(false);
    expect(matchesFilter(f('room=neq.a'), { room: 'b' })).toBe(true);
    expect(matchesFilter(f('room=in.(a,b)'), { room: 'b' })).toBe(true);
    expect(matchesFilter(f('room=in.(a,b)'), { room: 'c' })).toBe(false);
    expect(matchesFilter(f('done=eq.true'), { done: true })).toBe(true);
    expect(matchesFilter(f('room=eq.a'), { room: null })).toBe(false);
    expect(matchesFilter(f('room=neq.a'), {})).toBe(false);
    expect(matchesFilter(f('id=eq.x'), { id: 1 })).toBe(false);
  });

  it('checks bindings: public only, known events, a filter needs a table; echoes what was sent', () => {
    expect(parseChangeSubscription({ event: '*', schema: 'public' })).toMatchObject({ ok: true, value: { event: '*', table: null, filter: null, echo: { event: '*', schema: 'public' } } });
    const sub = parseChangeSubscription({ event: 'INSERT', schema: 'public', table: 'messages', filter: 'room=eq.1' });
    expect(sub).toMatchObject({ ok: true, value: { echo: { event: 'INSERT', schema: 'public', table: 'messages', filter: 'room=eq.1' } } });
    for (const bad of [null, 'x', { event: 'TRUNCATE', schema: 'public' }, { event: '*', schema: 'auth' }, { event: '*', schema: 'public', table: 'a b' }, { event: '*', schema: 'public', filter: 'id=eq.1' }]) {
      expect(parseChangeSubscription(bad)).toMatchObject({ ok: false, error: { code: 'REALTIME.INVALID_FILTER' } });
    }
    if (!sub.ok) throw new Error('unreachable');
    expect(concerns(sub.value, { schema: 'public', table: 'messages', type: 'INSERT' })).toBe(true);
    expect(concerns(sub.value, { schema: 'public', table: 'messages', type: 'DELETE' })).toBe(false);
    expect(concerns(sub.value, { schema: 'public', table: 'other', type: 'INSERT' })).toBe(false);
  });
});

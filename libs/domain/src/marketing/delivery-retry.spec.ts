import { describe, expect, it } from '@jest/globals';
import { FixedClock } from '../testing/fixed-clock.js';
import { FIRST_RETRY_DELAY_MS, MAX_RETRY_DELAY_MS, retryAt, retryDelayMs } from './delivery-retry.js';
import { FAILED_CONTACT_CACHE_CLEAR_MS, FailedContactCache } from './failed-contact-cache.js';

describe('retryDelayMs (backoff of failed marketing deliveries)', () => {
  it('doubles from 30 s after each failure, up to one hour, and never gives up', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(8)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(1000)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(0)).toBe(FIRST_RETRY_DELAY_MS);
  });

  it('gives the time of the next attempt', () => {
    expect(retryAt(new Date('2026-03-01T10:00:00Z'), 2)).toEqual(new Date('2026-03-01T10:01:00Z'));
  });
});

describe('FailedContactCache', () => {
  it('holds failed contacts (any case) until it clears, 5 minutes after the first failure', () => {
    const clock = new FixedClock('2026-03-01T10:00:00Z');
    const cache = new FailedContactCache(clock);
    expect(cache.clearsAt()).toBeNull();
    cache.add('Ana@Example.com');
    clock.advance(60_000);
    cache.add('bo@example.com');
    expect(cache.has('ana@example.com')).toBe(true);
    expect(cache.clearsAt()).toEqual(new Date('2026-03-01T10:05:00Z'));
    clock.set('2026-03-01T10:04:59.999Z');
    expect(cache.size).toBe(2);
    clock.set('2026-03-01T10:05:00Z');
    expect(cache.has('ana@example.com')).toBe(false);
    expect(cache.has('bo@example.com')).toBe(false);
    expect(cache.clearsAt()).toBeNull();
  });

  it('a failure after a clearing starts a new 5-minute window', () => {
    const clock = new FixedClock('2026-03-01T10:00:00Z');
    const cache = new FailedContactCache(clock);
    cache.add('ana@example.com');
    clock.advance(FAILED_CONTACT_CACHE_CLEAR_MS + 1000);
    cache.add('bo@example.com');
    expect(cache.has('ana@example.com')).toBe(false);
    expect(cache.clearsAt()).toEqual(new Date('2026-03-01T10:10:01Z'));
  });
});

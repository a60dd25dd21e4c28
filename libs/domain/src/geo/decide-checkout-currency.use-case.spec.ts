import { beforeEach, describe, expect, it } from '@jest/globals';
import { createProfile } from '../profiles/profile.entity.js';
import { FixedClock } from '../testing/fixed-clock.js';
import { InMemoryGeoLocator } from '../testing/in-memory-geo-locator.js';
import { InMemoryProfileRepository } from '../testing/in-memory-profile-repository.js';
import { DecideCheckoutCurrency } from './decide-checkout-currency.use-case.js';
import { locationHttpError } from './geo-locator.port.js';

describe('DecideCheckoutCurrency (SPEC §7, §8, §9)', () => {
  let geo: InMemoryGeoLocator;
  let profiles: InMemoryProfileRepository;
  let clock: FixedClock;
  let decide: DecideCheckoutCurrency;

  beforeEach(async () => {
    geo = new InMemoryGeoLocator().place('103.21.124.10', { countryCode: 'IN' }).place('8.8.4.4', { countryCode: 'US' });
    profiles = new InMemoryProfileRepository();
    clock = new FixedClock('2026-03-01T00:00:00.000Z');
    decide = new DecideCheckoutCurrency(geo, profiles, clock);
    await profiles.insertIfAbsent(createProfile({ id: 'u1', email: 'a@example.com', referralCode: 'ABC123' }, new Date('2026-01-01T00:00:00.000Z')));
  });

  it('picks INR for an Indian address and stores it in the profile', async () => {
    expect(await decide.execute({ userId: 'u1', clientIp: '103.21.124.10' })).toEqual({ currency: 'INR', countryCode: 'IN', error: null });
    const stored = await profiles.findById('u1');
    expect(stored?.preferredCurrency).toBe('INR');
    expect(stored?.updatedAt).toEqual(clock.now());
    expect(geo.lookups).toEqual(['103.21.124.10']);
  });

  it('picks USD elsewhere, replacing an earlier INR', async () => {
    await decide.execute({ userId: 'u1', clientIp: '103.21.124.10' });
    expect(await decide.execute({ userId: 'u1', clientIp: '8.8.4.4' })).toEqual({ currency: 'USD', countryCode: 'US', error: null });
    expect((await profiles.findById('u1'))?.preferredCurrency).toBe('USD');
  });

  it("falls back to USD with country null and §8's message when the lookup fails", async () => {
    await decide.execute({ userId: 'u1', clientIp: '103.21.124.10' });
    geo.failWith = locationHttpError(503);
    expect(await decide.execute({ userId: 'u1', clientIp: '103.21.124.10' })).toEqual({ currency: 'USD', countryCode: null, error: 'HTTP error! status: 503' });
    // What is stored is what was shown: checkout charges it.
    expect((await profiles.findById('u1'))?.preferredCurrency).toBe('USD');
  });

  it("answers 'Failed to detect location' when the locator throws", async () => {
    const throwing = new DecideCheckoutCurrency({ locate: () => Promise.reject(new Error('boom')) }, profiles, clock);
    expect(await throwing.execute({ userId: null, clientIp: '8.8.4.4' })).toEqual({ currency: 'USD', countryCode: null, error: 'Failed to detect location' });
  });

  it('stores nothing for a visitor who is not signed in', async () => {
    expect(await decide.execute({ userId: null, clientIp: '103.21.124.10' })).toEqual({ currency: 'INR', countryCode: 'IN', error: null });
    expect((await profiles.findById('u1'))?.preferredCurrency).toBe('USD');
  });
});

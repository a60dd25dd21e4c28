import { describe, expect, it } from '@jest/globals';
import { err, ok } from '../shared/result.js';
import { currencyForLocation } from './currency-for-location.js';
import { locationDetectionFailed, locationHttpError, locationUnavailable } from './geo-locator.port.js';

describe('currencyForLocation (SPEC §8, §9)', () => {
  it('charges INR for India', () => {
    expect(currencyForLocation(ok({ countryCode: 'IN', country: 'India', city: 'Pune' }))).toEqual({
      currency: 'INR',
      countryCode: 'IN',
    });
  });

  it('normalises the code the service sent', () => {
    expect(currencyForLocation(ok({ countryCode: ' in ' }))).toEqual({ currency: 'INR', countryCode: 'IN' });
  });

  it.each([['US'], ['GB'], ['SG']])('charges USD for %p', (countryCode) => {
    expect(currencyForLocation(ok({ countryCode }))).toEqual({ currency: 'USD', countryCode });
  });

  it.each([[null], [''], ['  ']])('charges USD with country null when the code is unknown (%p)', (countryCode) => {
    expect(currencyForLocation(ok({ countryCode }))).toEqual({ currency: 'USD', countryCode: null });
  });

  it.each([[locationDetectionFailed()], [locationHttpError(429)], [locationUnavailable()]])(
    'falls back to USD with country null on %p',
    (failure) => {
      expect(currencyForLocation(err(failure))).toEqual({ currency: 'USD', countryCode: null });
    },
  );
});

describe('location errors (SPEC §8)', () => {
  it('carry the SPEC messages', () => {
    expect(locationDetectionFailed()).toEqual({ code: 'GEO.DETECTION_FAILED', message: 'Location detection failed' });
    expect(locationHttpError(503)).toEqual({ code: 'GEO.HTTP_ERROR', message: 'HTTP error! status: 503', status: 503 });
    expect(locationUnavailable()).toEqual({ code: 'GEO.UNAVAILABLE', message: 'Failed to detect location' });
  });
});

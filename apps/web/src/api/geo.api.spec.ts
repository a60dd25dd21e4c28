import { describe, expect, it } from '@jest/globals';
import { currencyForLocation } from '@kiln/domain';
import { environment } from '../testing/ui-fakes';
import { LanguageRegionGeoApi, regionOfLanguageTag } from './geo.api';

describe('LanguageRegionGeoApi (offline country detection)', () => {
  it('reads the region of a language tag', () => {
    expect(regionOfLanguageTag('en-IN')).toBe('IN');
    expect(regionOfLanguageTag('hi_in')).toBe('IN');
    expect(regionOfLanguageTag('zh-Hant-TW')).toBe('TW');
    expect(regionOfLanguageTag('en')).toBeNull();
    expect(regionOfLanguageTag('es-419')).toBeNull();
  });

  it('uses the first language that names a region', async () => {
    const geo = new LanguageRegionGeoApi(environment({ languages: ['en', 'en-IN', 'en-US'] }));
    expect(await geo.locate()).toEqual({ ok: true, value: { countryCode: 'IN' } });
  });

  it('fails without a region, and checkout then falls back to USD', async () => {
    const located = await new LanguageRegionGeoApi(environment({ languages: ['en'] })).locate();
    expect(located.ok).toBe(false);
    expect(currencyForLocation(located)).toEqual({ currency: 'USD', countryCode: null });
  });
});

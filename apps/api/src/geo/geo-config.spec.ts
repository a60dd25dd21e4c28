import { describe, expect, it } from '@jest/globals';
import { DEFAULT_GEOLOCATION_TIMEOUT_MS, parseGeoConfig } from './geo-config.js';

const parse = (env: Record<string, string>) => {
  const problems: string[] = [];
  return { config: parseGeoConfig(env, (p) => problems.push(p)), problems };
};

describe('parseGeoConfig (GEOLOCATION_URL, GEOLOCATION_TIMEOUT_MS)', () => {
  it('is off by default: no lookup, the USD fallback', () => {
    expect(parse({})).toEqual({ config: { urlTemplate: null, timeoutMs: DEFAULT_GEOLOCATION_TIMEOUT_MS }, problems: [] });
  });

  it('accepts an http(s) URL with {ip}, and a timeout', () => {
    expect(parse({ GEOLOCATION_URL: ' https://ipwho.is/{ip} ', GEOLOCATION_TIMEOUT_MS: '1500' })).toEqual({
      config: { urlTemplate: 'https://ipwho.is/{ip}', timeoutMs: 1500 },
      problems: [],
    });
  });

  it.each([
    ['https://ipwho.is/', 'GEOLOCATION_URL must contain {ip} exactly once (for example https://ipwho.is/{ip})'],
    ['https://x/{ip}/{ip}', 'GEOLOCATION_URL must contain {ip} exactly once (for example https://ipwho.is/{ip})'],
    ['ftp://x/{ip}', 'GEOLOCATION_URL must be an http:// or https:// URL, got one starting with ftp:// (for example https://ipwho.is/{ip})'],
    ['not a url {ip}', 'GEOLOCATION_URL must be an http:// or https:// URL (for example https://ipwho.is/{ip})'],
    ['https://user:secret@x/{ip}', 'GEOLOCATION_URL must not contain credentials (for example https://ipwho.is/{ip})'],
  ])('refuses %p', (url, problem) => {
    const { config, problems } = parse({ GEOLOCATION_URL: url });
    expect(problems).toEqual([problem]);
    expect(config.urlTemplate).toBeNull();
  });

  it.each(['0', '99', '30001', '1.5', 'soon'])('refuses the timeout %p', (raw) => {
    expect(parse({ GEOLOCATION_TIMEOUT_MS: raw }).problems).toEqual([
      `GEOLOCATION_TIMEOUT_MS must be a whole number of milliseconds between 100 and 30000, got "${raw}"`,
    ]);
  });
});

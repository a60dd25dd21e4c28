import { describe, expect, it } from '@jest/globals';
import { parseMarketingConfig } from './marketing-config.js';

function parse(env: Record<string, string>, nodeEnv = 'development') {
  const problems: string[] = [];
  const config = parseMarketingConfig(env, nodeEnv, (p) => problems.push(p));
  return { config, problems };
}

describe('parseMarketingConfig', () => {
  it('defaults to the local store, a 10 s timeout and a 10 s worker (off under test)', () => {
    expect(parse({})).toEqual({ config: { brevoApiKey: null, brevoBaseUrl: null, brevoTimeoutMs: 10_000, deliveryIntervalMs: 10_000 }, problems: [] });
    expect(parse({}, 'test').config.deliveryIntervalMs).toBe(0);
  });

  it('reads Brevo', () => {
    expect(parse({ BREVO_API_KEY: ' xkeysib-abc ', BREVO_BASE_URL: 'http://127.0.0.1:9999/v3/', BREVO_TIMEOUT_MS: '5000', MARKETING_DELIVERY_INTERVAL_MS: '0' })).toEqual({
      config: { brevoApiKey: 'xkeysib-abc', brevoBaseUrl: 'http://127.0.0.1:9999/v3', brevoTimeoutMs: 5000, deliveryIntervalMs: 0 },
      problems: [],
    });
  });

  it.each([
    [{ BREVO_API_KEY: 'xkeysib-a b' }, 'BREVO_API_KEY must not contain spaces'],
    [{ BREVO_API_KEY: 'xsmtpsib-secret' }, 'BREVO_API_KEY is an SMTP key'],
    [{ BREVO_BASE_URL: 'https://api.brevo.com/v3' }, 'BREVO_BASE_URL is set but BREVO_API_KEY is not'],
    [{ BREVO_API_KEY: 'xkeysib-a', BREVO_BASE_URL: 'ftp://x' }, 'BREVO_BASE_URL must be an http:// or https:// URL'],
    [{ BREVO_API_KEY: 'xkeysib-a', BREVO_BASE_URL: 'https://u:p@x/v3' }, 'BREVO_BASE_URL must not contain credentials'],
    [{ BREVO_TIMEOUT_MS: '10' }, 'BREVO_TIMEOUT_MS must be a whole number of milliseconds between 1000 and 60000'],
    [{ MARKETING_DELIVERY_INTERVAL_MS: '5' }, 'MARKETING_DELIVERY_INTERVAL_MS must be a whole number of milliseconds between 1000 and 3600000 (or 0 for off)'],
  ])('reports %j', (env, problem) => {
    const { problems } = parse(env);
    expect(problems).toEqual([expect.stringContaining(problem)]);
    expect(problems.join()).not.toContain('secret');
  });
});

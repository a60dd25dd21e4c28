import { describe, expect, it } from '@jest/globals';
import { DEFAULT_GA4_SCRIPT_ORIGIN, parseAnalyticsConfig } from './analytics-config.js';

const parse = (env: Record<string, string>) => {
  const problems: string[] = [];
  return { config: parseAnalyticsConfig(env, (p) => problems.push(p)), problems };
};

describe('parseAnalyticsConfig (OPERATOR_EMAILS, GA4_*, ANALYTICS_ON_LOCALHOST)', () => {
  it('by default: no operators, no GA4 (first-party only), nothing sent from localhost', () => {
    expect(parse({})).toEqual({ config: { operatorEmails: [], ga4: null, onLocalhost: false }, problems: [] });
  });

  it('reads operators (lower-cased), a measurement id with Google’s origin, and localhost on', () => {
    expect(parse({ OPERATOR_EMAILS: ' Ops@Kiln.dev, ana@example.com ,', GA4_MEASUREMENT_ID: 'G-ABC123XYZ', ANALYTICS_ON_LOCALHOST: 'true' })).toEqual({
      config: { operatorEmails: ['ops@kiln.dev', 'ana@example.com'], ga4: { measurementId: 'G-ABC123XYZ', scriptOrigin: DEFAULT_GA4_SCRIPT_ORIGIN }, onLocalhost: true },
      problems: [],
    });
  });

  it('takes another script origin (a local fake in tests)', () => {
    expect(parse({ GA4_MEASUREMENT_ID: 'G-TEST1234', GA4_SCRIPT_ORIGIN: 'http://127.0.0.1:3323' }).config.ga4).toEqual({
      measurementId: 'G-TEST1234',
      scriptOrigin: 'http://127.0.0.1:3323',
    });
  });

  it.each([
    [{ OPERATOR_EMAILS: 'ops@kiln.dev, not-an-email' }, 'OPERATOR_EMAILS must be a comma-separated list of email addresses, got "not-an-email"'],
    [{ GA4_MEASUREMENT_ID: 'UA-1234-1' }, 'GA4_MEASUREMENT_ID must look like G-XXXXXXXXXX (a GA4 web stream\'s measurement id), got "UA-1234-1"'],
    [{ GA4_MEASUREMENT_ID: 'G-TEST1234', GA4_SCRIPT_ORIGIN: 'ftp://x' }, `GA4_SCRIPT_ORIGIN must be an http:// or https:// origin such as ${DEFAULT_GA4_SCRIPT_ORIGIN}, got "ftp://x"`],
    [{ GA4_MEASUREMENT_ID: 'G-TEST1234', GA4_SCRIPT_ORIGIN: 'https://x.test/gtag' }, `GA4_SCRIPT_ORIGIN must be an http:// or https:// origin such as ${DEFAULT_GA4_SCRIPT_ORIGIN}, got "https://x.test/gtag"`],
    [{ GA4_SCRIPT_ORIGIN: 'https://x.test' }, 'GA4_SCRIPT_ORIGIN is set but GA4_MEASUREMENT_ID is not: set both, or neither'],
    [{ ANALYTICS_ON_LOCALHOST: 'yes' }, 'ANALYTICS_ON_LOCALHOST must be true or false, got "yes"'],
  ])('refuses %p', (env, problem) => {
    expect(parse(env).problems).toEqual([problem]);
  });
});

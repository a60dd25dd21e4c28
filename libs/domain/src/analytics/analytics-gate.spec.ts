import { describe, expect, it } from '@jest/globals';
import { isLocalHost, shouldSendAnalytics } from './analytics-gate.js';

describe('shouldSendAnalytics (SPEC §5)', () => {
  it.each([['localhost'], ['LOCALHOST'], ['127.0.0.1'], ['::1'], ['[::1]'], ['0.0.0.0'], ['app.localhost']])(
    'skips %p unless enabled',
    (host) => {
      expect(isLocalHost(host)).toBe(true);
      expect(shouldSendAnalytics(host, { enabledOnLocalhost: false })).toBe(false);
      expect(shouldSendAnalytics(host, { enabledOnLocalhost: true })).toBe(true);
    },
  );

  it.each([['kiln.app'], ['localhost.example.com'], ['127.0.0.2.nip.io']])('sends from %p', (host) => {
    expect(isLocalHost(host)).toBe(false);
    expect(shouldSendAnalytics(host, { enabledOnLocalhost: false })).toBe(true);
  });
});

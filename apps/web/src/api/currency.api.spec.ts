import { describe, expect, it } from '@jest/globals';
import type { HttpClient, RequestOptions } from '../app/ports';
import { HttpCurrencyApi } from './currency.api';

/** Records the calls; answers the server's decision. */
function recordingHttp(calls: string[]): HttpClient {
  const reply = <T>() => Promise.resolve({ currency: 'INR', country_code: 'IN', error: null } as T);
  return {
    get: <T>(path: string, options?: RequestOptions) => (calls.push(`GET ${path}${options?.anonymous ? ' anonymous' : ''}`), reply<T>()),
    post: <T>(path: string) => (calls.push(`POST ${path}`), reply<T>()),
    patch: <T>() => reply<T>(),
    delete: <T>() => reply<T>(),
  };
}

describe('HttpCurrencyApi', () => {
  it('asks without a token for a visitor, and has the server store it for a signed-in person', async () => {
    const calls: string[] = [];
    const api = new HttpCurrencyApi(recordingHttp(calls));
    expect(await api.decide(false)).toEqual({ currency: 'INR', country_code: 'IN', error: null });
    await api.decide(true);
    expect(calls).toEqual(['GET /api/pricing/currency anonymous', 'POST /api/pricing/currency']);
  });
});

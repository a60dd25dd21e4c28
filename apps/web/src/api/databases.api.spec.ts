import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import type { DeleteOptions, HttpClient, RequestOptions } from '../app/ports';
import { HttpDatabasesApi } from './databases.api';

/** Records each call (method, path, body, options) and answers {}. */
class RecordingHttp implements HttpClient {
  readonly calls: [string, string, unknown, RequestOptions | undefined][] = [];
  async get<T>(path: string, options?: RequestOptions): Promise<T> {
    this.calls.push(['GET', path, undefined, options]);
    return {} as T;
  }
  async post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    this.calls.push(['POST', path, body, options]);
    return {} as T;
  }
  async patch<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    this.calls.push(['PATCH', path, body, options]);
    return {} as T;
  }
  async delete<T>(path: string, options?: DeleteOptions): Promise<T> {
    this.calls.push(['DELETE', path, options?.body, options]);
    return {} as T;
  }
}

describe('HttpDatabasesApi', () => {
  it('calls the routes of docs/databases.md with their bodies, ids encoded', async () => {
    const http = new RecordingHttp();
    const api = new HttpDatabasesApi(http);
    await api.provision('p1');
    await api.check('p/1');
    await api.disconnect('p 1', false);
    await api.disconnect('p1', true);
    expect(http.calls.map(([method, path, body]) => [method, path, body])).toEqual([
      ['POST', '/api/db/provision', { project_id: 'p1' }],
      ['GET', '/api/db/check/p%2F1', undefined],
      ['DELETE', '/database/p%201?deleteFromProvider=false', undefined],
      ['DELETE', '/database/p1?deleteFromProvider=true', undefined],
    ]);
  });

  it('never repeats a provision or a disconnect; the check may be retried', async () => {
    const http = new RecordingHttp();
    const api = new HttpDatabasesApi(http);
    await api.provision('p1');
    await api.check('p1');
    await api.disconnect('p1', true);
    expect(http.calls.map(([method, , , options]) => [method, options?.retry])).toEqual([
      ['POST', false],
      ['GET', undefined],
      ['DELETE', false],
    ]);
  });
});

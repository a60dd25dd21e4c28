import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { RecordingHttp } from '../testing/recording-http';
import { HttpDatabasesApi } from './databases.api';


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

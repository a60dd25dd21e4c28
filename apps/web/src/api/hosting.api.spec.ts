import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { RecordingHttp } from '../testing/recording-http';
import { HttpHostingApi } from './hosting.api';


describe('HttpHostingApi', () => {
  it('calls the routes of docs/hosting.md with their bodies', async () => {
    const http = new RecordingHttp();
    const api = new HttpHostingApi(http);
    await api.publishCheck('p/1');
    await api.status('p 1');
    await api.sites();
    await api.publish('p1');
    await api.unpublish('p1');
    await api.rollback('p1', 'r1');
    await api.addDomain('p1', 'www.shop.com');
    await api.removeDomain('p1', 'www.shop.com');
    await api.verifyDomain('www.shop.com', 'edge.kiln.test');
    await api.takeScreenshot('p1');
    await api.publicSite('my/app');
    expect(http.calls.map(([method, path, body]) => [method, path, body])).toEqual([
      ['GET', '/api/projects/p%2F1/publish-check', undefined],
      ['GET', '/api/fly/machine-status?project_id=p%201', undefined],
      ['GET', '/api/fly/sites', undefined],
      ['POST', '/api/fly/create-project', { project_id: 'p1', region: 'sin', publish: true }],
      ['DELETE', '/api/fly/destroy-app', { project_id: 'p1' }],
      ['POST', '/api/fly/rollback', { project_id: 'p1', release_id: 'r1' }],
      ['POST', '/api/fly/certificates/p1', { domain_name: 'www.shop.com' }],
      ['DELETE', '/api/fly/certificates/p1', { domain_name: 'www.shop.com' }],
      ['POST', '/api/fly/verify-dns', { domain: 'www.shop.com', expected_target: 'edge.kiln.test' }],
      ['POST', '/api/fly/take-screenshot', { project_id: 'p1' }],
      ['GET', '/api/hosting/sites/my%2Fapp', undefined],
    ]);
  });

  it('never repeats a build, a release switch, a domain add or a screenshot; the public site needs no token', async () => {
    const http = new RecordingHttp();
    const api = new HttpHostingApi(http);
    await api.publish('p1');
    await api.rollback('p1', 'r1');
    await api.addDomain('p1', 'a.com');
    await api.takeScreenshot('p1');
    expect(http.calls.map(([, , , options]) => options?.retry)).toEqual([false, false, false, false]);
    await api.publicSite('app');
    expect(http.calls.at(-1)?.[3]).toEqual({ anonymous: true });
  });
});

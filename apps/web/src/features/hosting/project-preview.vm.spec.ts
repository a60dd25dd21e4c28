import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../app/ports';
import { ManualTimers } from '../../testing/auth-fakes';
import { environment } from '../../testing/ui-fakes';
import { FakeHostingApi, NOW } from '../../testing/hosting-fakes';
import { ProjectPreviewVm, frameSandbox } from './project-preview.vm';

function setup(origin = 'http://localhost:3000') {
  const api = new FakeHostingApi();
  const vm = new ProjectPreviewVm(api, new ManualTimers(NOW), environment({ origin }));
  return { api, vm };
}

describe('ProjectPreviewVm', () => {
  it("shows a live site: its name, address, screenshot and when it was published, framed in its own origin", async () => {
    const { api, vm } = setup();
    await vm.load('chores');
    expect(api.calls).toEqual(['publicSite chores']);
    expect(vm.state).toEqual({
      kind: 'found',
      site: {
        name: 'Chores',
        url: 'http://chores.apps.localhost:3000/',
        host: 'chores.apps.localhost:3000',
        screenshotUrl: '/api/hosting/sites/chores/screenshot.png',
        published: 'Published 2 hours ago',
        publishedAt: api.publicSiteReply.published_at,
        sandbox: 'allow-scripts allow-same-origin allow-forms allow-popups',
      },
    });
  });

  it('a slug with no live site is "not published"', async () => {
    const { api, vm } = setup();
    api.fail('publicSite', new ApiError('Not found', 404, 'HOSTING.NOT_PUBLISHED', null));
    await vm.load('gone');
    expect(vm.state).toEqual({ kind: 'not-found' });
  });

  it.each(['../etc', 'a.b', 'a b', '-x', 'x'.repeat(64), ''])('a slug that is no DNS label (%p) names no site and sends nothing', async (slug) => {
    const { api, vm } = setup();
    await vm.load(slug);
    expect(vm.state).toEqual({ kind: 'not-found' });
    expect(api.calls).toEqual([]);
  });

  it('asks for a slug in lower case', async () => {
    const { api, vm } = setup();
    await vm.load('Chores');
    expect(api.calls).toEqual(['publicSite chores']);
  });

  it('a failure that is not a 404 is said, and can be tried again', async () => {
    const { api, vm } = setup();
    api.fail('publicSite', new ApiError('Request failed', 503, null, null));
    await vm.load('chores');
    expect(vm.state).toEqual({ kind: 'error', message: 'Request failed' });
    await vm.retry();
    expect(vm.state.kind).toBe('found');
  });

  it('a site address that is not http(s) is never framed', async () => {
    const { api, vm } = setup();
    api.publicSiteReply = { ...api.publicSiteReply, url: 'javascript:alert(document.cookie)' };
    await vm.load('chores');
    expect(vm.state).toEqual({ kind: 'not-found' });
  });

  it("a site on Kiln's own origin gets no allow-same-origin (it could lift its sandbox)", () => {
    expect(frameSandbox('http://localhost:3000/', 'http://localhost:3000')).toBe('allow-scripts allow-forms allow-popups');
    expect(frameSandbox('http://chores.apps.localhost:3000/', 'http://localhost:3000')).toBe('allow-scripts allow-same-origin allow-forms allow-popups');
    expect(frameSandbox('not a url', 'http://localhost:3000')).toBe('allow-scripts allow-forms allow-popups');
  });

  it('a later load wins over an earlier one that answers after it', async () => {
    const { api, vm } = setup();
    let answerFirst: () => void = () => undefined;
    const second = api.publicSiteReply;
    api.publicSite = (slug) =>
      slug === 'first' ? new Promise((resolve) => (answerFirst = () => resolve({ ...second, name: 'First', slug: 'first' }))) : Promise.resolve({ ...second, name: 'Second' });
    const first = vm.load('first');
    await vm.load('second');
    answerFirst();
    await first;
    expect(vm.slug).toBe('second');
    expect(vm.state.kind === 'found' && vm.state.site.name).toBe('Second');
  });
});

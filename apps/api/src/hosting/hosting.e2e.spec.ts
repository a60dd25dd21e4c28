import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type TestApp, type TestUser, inMemoryHosting, newUser, setPlan, signIn, startTestApp } from '../testing/e2e.js';

/**
 * Publishing through HTTP (docs/hosting.md) on the in-memory hosting adapters: the provider
 * records builds and which release each host serves, DNS answers what a test sets.
 */
describe('hosting routes (e2e)', () => {
  let t: TestApp;
  const hosting = inMemoryHosting();

  beforeAll(async () => {
    t = await startTestApp({ overrides: { hosting } });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A signed-in user on `plan` with one project whose sandbox exists. */
  async function projectOf(plan: string | null = 'pro_monthly'): Promise<{ user: TestUser; id: string }> {
    const user = newUser();
    await signIn(t, user);
    if (plan !== null) await setPlan(t, user.id, plan);
    const created = await t.http().post('/api/projects').set(user.auth).send({ name: 'Pantry' }).expect(201);
    const id = (created.body as { id: string }).id;
    await t.http().post(`/api/sandbox/${id}/ensure`).set(user.auth).send({}).expect((r) => expect(r.status).toBeLessThan(300));
    return { user, id };
  }
  const publish = (user: TestUser, id: string, extra: Record<string, unknown> = {}) =>
    t.http().post('/api/fly/create-project').set(user.auth).send({ project_id: id, publish: true, ...extra });
  const machineStatus = async (user: TestUser, id: string) => (await t.http().get(`/api/fly/machine-status?project_id=${id}`).set(user.auth).expect(200)).body;
  /** The site's part of machine-status (what publish answers too). */
  const status = async (user: TestUser, id: string) => {
    const { sandbox: _sandbox, ...site } = await machineStatus(user, id);
    return site;
  };
  const tls = (domain: string) => t.http().get(`/api/hosting/tls-allowed?domain=${encodeURIComponent(domain)}`);
  const usage = async (user: TestUser) => (await t.http().get('/api/usage').set(user.auth).expect(200)).body;

  it('publishes: live at the Kiln subdomain URL, counted as published, public and allowed a certificate', async () => {
    const { user, id } = await projectOf();
    const response = await publish(user, id, { region: 'sin', template_id: 'starter' });
    expect(response.status).toBe(200);
    const slug = response.body.slug as string;
    expect(response.body).toMatchObject({
      project_id: id,
      status: 'live',
      region: 'sin',
      published_url: `http://${slug}.apps.localhost:3000`,
      current_release: { number: 1, size_bytes: 1024, file_count: 3 },
      domains: [],
      screenshot_url: null,
    });
    expect(response.body.releases).toHaveLength(1);
    expect(hosting.provider.served(`${slug}.apps.localhost`)).toBe(response.body.current_release.id);
    expect(await status(user, id)).toEqual(response.body);
    // …and the project's sandbox machine, as the host reports it.
    expect((await machineStatus(user, id)).sandbox).toEqual({ engine: 'memory', state: expect.stringMatching(/^(running|stopped|missing)$/), memory_bytes: null, cpu_percent: null });
    expect((await t.http().get(`/api/projects/${id}`).set(user.auth)).body.domain).toBe(`${slug}.apps.localhost`);
    expect((await usage(user)).published_projects_count).toBe(1);
    expect((await t.http().get(`/api/hosting/sites/${slug}`)).body).toMatchObject({ name: 'Pantry', slug, url: `http://${slug}.apps.localhost:3000` });
    expect((await tls(`${slug}.apps.localhost`)).status).toBe(200);
    // publish: false only answers the status.
    const builds = hosting.provider.builds.length;
    expect((await t.http().post('/api/fly/create-project').set(user.auth).send({ project_id: id, publish: false })).body.status).toBe('live');
    expect(hosting.provider.builds).toHaveLength(builds);
  });

  it('a failed build is 422 with the build log: nothing published, nothing changed, no credit charged', async () => {
    const { user, id } = await projectOf();
    await publish(user, id).expect(200);
    const [before, creditsBefore] = [await status(user, id), await usage(user)];
    hosting.provider.buildFails = "src/App.tsx(4,7): error TS2322: Type 'string' is not assignable to type 'number'.";
    try {
      const response = await publish(user, id);
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ code: 'HOSTING.BUILD_FAILED', build_log: hosting.provider.buildFails });
    } finally {
      hosting.provider.buildFails = null;
    }
    expect(await status(user, id)).toEqual(before);
    expect(await usage(user)).toEqual(creditsBefore);
  });

  it("the free plan is 402 with limit_type 'published' and SPEC §8's text; nothing is built", async () => {
    const { user, id } = await projectOf(null);
    const builds = hosting.provider.builds.length;
    const response = await publish(user, id);
    expect(response.status).toBe(402);
    expect(response.body).toEqual({
      code: 'PUBLISHING.NOT_INCLUDED',
      limit_type: 'published',
      plan: 'Free',
      detail: "Your Free plan doesn't include domain connections. Please upgrade to connect a custom domain.",
    });
    expect(hosting.provider.builds).toHaveLength(builds);
    expect((await status(user, id)).status).toBe('never_published');
  });

  it('rolls back to an earlier release instantly; destroy-app unpublishes and keeps the releases', async () => {
    const { user, id } = await projectOf();
    const first = (await publish(user, id).expect(200)).body;
    const second = (await t.http().post('/api/fly/restart-app').set(user.auth).send({ project_id: id, publish: true }).expect(200)).body;
    expect(second.current_release.number).toBe(2);
    const host = `${first.slug}.apps.localhost`;
    const builds = hosting.provider.builds.length;
    const rolled = await t.http().post('/api/fly/rollback').set(user.auth).send({ project_id: id, release_id: first.current_release.id });
    expect(rolled.status).toBe(200);
    expect(rolled.body.current_release.id).toBe(first.current_release.id);
    expect(hosting.provider.served(host)).toBe(first.current_release.id);
    expect(hosting.provider.builds).toHaveLength(builds);
    expect((await t.http().post('/api/fly/rollback').set(user.auth).send({ project_id: id, release_id: 'no-such-release' })).status).toBe(404);
    await t.http().post('/api/fly/restart-app').set(user.auth).send({ project_id: id, publish: false }).expect(200);

    const destroyed = await t.http().delete('/api/fly/destroy-app').set(user.auth).send({ project_id: id });
    expect(destroyed.status).toBe(200);
    expect(destroyed.body).toMatchObject({ status: 'unpublished', slug: first.slug, published_url: null });
    expect(destroyed.body.releases.map((r: { number: number }) => r.number)).toEqual([2, 1]);
    expect(hosting.provider.served(host)).toBeNull();
    expect((await usage(user)).published_projects_count).toBe(0);
    expect((await tls(host)).status).toBe(404);
    expect((await t.http().get(`/api/hosting/sites/${first.slug}`)).status).toBe(404);
    expect((await t.http().delete('/api/fly/destroy-app').set(user.auth).send({ project_id: id })).body.code).toBe('HOSTING.NOT_PUBLISHED');
    // Publishing again keeps the slug.
    expect((await publish(user, id).expect(200)).body).toMatchObject({ slug: first.slug, current_release: { number: 3 } });
  });

  it('adds a custom domain, verifies it through DNS, serves it, and removes it', async () => {
    const { user, id } = await projectOf();
    const site = (await publish(user, id).expect(200)).body;
    const added = await t.http().post(`/api/fly/certificates/${id}`).set(user.auth).send({ domain_name: 'Shop.Example.com' });
    expect(added.status).toBe(201);
    const token = added.body.records[0].value as string;
    expect(added.body).toMatchObject({
      domain: { domain: 'shop.example.com', status: 'pending', failure_reason: null, url: 'http://shop.example.com:3000' },
      records: [
        { type: 'TXT', name: '_kiln-challenge.shop.example.com', value: expect.stringMatching(/^kiln-verify-[a-z0-9]{32}$/) },
        { type: 'CNAME', name: 'shop.example.com', value: 'apps.localhost' },
      ],
    });
    expect((await tls('shop.example.com')).status).toBe(404);

    const missing = await t.http().post('/api/fly/verify-dns').set(user.auth).send({ domain: 'shop.example.com', expected_target: 'apps.localhost' });
    expect(missing.body).toMatchObject({ verified: false, txt_found: false, target_found: false, domain: { status: 'pending', failure_reason: expect.stringContaining('_kiln-challenge.shop.example.com') } });
    hosting.dns.setTxt('_kiln-challenge.shop.example.com', token);
    hosting.dns.setCname('shop.example.com', 'apps.localhost');
    hosting.dns.unavailable = true;
    try {
      const down = await t.http().post('/api/fly/verify-dns').set(user.auth).send({ domain: 'shop.example.com' });
      expect(down.status).toBe(503);
      expect(down.body.code).toBe('HOSTING.DNS_UNAVAILABLE');
    } finally {
      hosting.dns.unavailable = false;
    }
    const verified = await t.http().post('/api/fly/verify-dns').set(user.auth).send({ domain: 'shop.example.com', expected_target: 'apps.localhost' });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ verified: true, txt_found: true, target_found: true, domain: { status: 'active' } });
    expect(hosting.provider.served('shop.example.com')).toBe(site.current_release.id);
    expect((await tls('shop.example.com')).status).toBe(200);
    expect((await status(user, id)).domains).toMatchObject([{ domain: 'shop.example.com', status: 'active' }]);

    const removed = await t.http().delete(`/api/fly/certificates/${id}`).set(user.auth).send({ domain_name: 'shop.example.com' });
    expect(removed.status).toBe(200);
    expect(removed.body.domains).toEqual([]);
    expect(hosting.provider.served('shop.example.com')).toBeNull();
    expect((await tls('shop.example.com')).status).toBe(404);
    expect((await t.http().delete(`/api/fly/certificates/${id}`).set(user.auth).send({ domain_name: 'shop.example.com' })).status).toBe(404);
  });

  it('deleting a published project takes its site down (hosts, TLS, public page)', async () => {
    const { user, id } = await projectOf();
    const site = (await publish(user, id).expect(200)).body;
    const host = `${site.slug}.apps.localhost`;
    expect(hosting.provider.served(host)).not.toBeNull();
    await t.http().delete(`/api/projects/${id}`).set(user.auth).expect(204);
    expect(hosting.provider.served(host)).toBeNull();
    expect(hosting.provider.hasRelease(site.current_release.id)).toBe(false);
    expect((await tls(host)).status).toBe(404);
    expect((await t.http().get(`/api/hosting/sites/${site.slug}`)).status).toBe(404);
    expect((await usage(user)).published_projects_count).toBe(0);
  });

  it('takes a screenshot of the live site and serves it publicly', async () => {
    const { user, id } = await projectOf();
    expect((await t.http().post('/api/fly/take-screenshot').set(user.auth).send({ project_id: id })).body.code).toBe('HOSTING.NOT_PUBLISHED');
    const site = (await publish(user, id).expect(200)).body;
    const shot = await t.http().post('/api/fly/take-screenshot').set(user.auth).send({ project_id: id });
    expect(shot.status).toBe(200);
    expect(shot.body.screenshot_url).toMatch(new RegExp(`^/api/hosting/sites/${site.slug}/screenshot\\.png\\?v=\\d+$`));
    const png = await t.http().get(shot.body.screenshot_url).buffer(true);
    expect(png.status).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect([...(png.body as Buffer).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect((await status(user, id)).screenshot_url).toBe(shot.body.screenshot_url);
  });

  it("GET /api/fly/sites answers all the caller's sites at once: URL and screenshot while live; no one else's", async () => {
    const { user, id: live } = await projectOf();
    expect((await t.http().get('/api/fly/sites').set(user.auth).expect(200)).body).toEqual([]);
    const more = async () => {
      const created = await t.http().post('/api/projects').set(user.auth).send({ name: 'More' }).expect(201);
      await t.http().post(`/api/sandbox/${created.body.id}/ensure`).set(user.auth).send({}).expect((r) => expect(r.status).toBeLessThan(300));
      return created.body.id as string;
    };
    const [paused, never] = [await more(), await more()];
    const site = (await publish(user, live).expect(200)).body;
    const shot = (await t.http().post('/api/fly/take-screenshot').set(user.auth).send({ project_id: live }).expect(200)).body;
    const pausedSite = (await publish(user, paused).expect(200)).body;
    await t.http().post('/api/fly/take-screenshot').set(user.auth).send({ project_id: paused }).expect(200);
    await t.http().delete('/api/fly/destroy-app').set(user.auth).send({ project_id: paused }).expect(200);
    const other = await projectOf();
    await publish(other.user, other.id).expect(200);

    const sites = (await t.http().get('/api/fly/sites').set(user.auth).expect(200)).body as { project_id: string }[];
    expect([...sites].sort((a, b) => a.project_id.localeCompare(b.project_id))).toEqual(
      [
        { project_id: live, status: 'live', slug: site.slug, published_url: site.published_url, screenshot_url: shot.screenshot_url },
        { project_id: paused, status: 'unpublished', slug: pausedSite.slug, published_url: null, screenshot_url: null },
      ].sort((a, b) => a.project_id.localeCompare(b.project_id)),
    );
    // The same screenshot URL as the publish dialog's status, and the picture is there.
    expect((await status(user, live)).screenshot_url).toBe(shot.screenshot_url);
    expect((await t.http().get(shot.screenshot_url)).status).toBe(200);
    expect(sites.map((s) => s.project_id)).not.toContain(never);
    expect((await t.http().get('/api/fly/sites').set(other.user.auth).expect(200)).body.map((s: { project_id: string }) => s.project_id)).toEqual([other.id]);
    expect((await t.http().get('/api/fly/sites')).status).toBe(401);
  });

  describe('hostile input: a clear 4xx, and nothing changes', () => {
    it.each([
      ['an IPv4 literal', '127.0.0.1'],
      ['a hex IPv4', '0x7f.1'],
      ['an IPv6 literal', '[::1]'],
      ['localhost', 'localhost'],
      ['a *.localhost name', 'evil.localhost'],
      ["Kiln's own published-site domain", 'someone.apps.localhost'],
      ["a look-alike of Kiln's domain (Cyrillic а)", 'x.аpps.localhost'],
      ['a 300-character label', `${'a'.repeat(300)}.com`],
      ['a path', 'example.com/admin'],
      ['a single label', 'intranet'],
    ])('custom domain: %s → 400 HOSTING.INVALID_DOMAIN', async (_what, domain) => {
      const { user, id } = await projectOf();
      const response = await t.http().post(`/api/fly/certificates/${id}`).set(user.auth).send({ domain_name: domain });
      expect(response.status).toBe(400);
      expect(['HOSTING.INVALID_DOMAIN', 'VALIDATION_FAILED']).toContain(response.body.code);
      expect(typeof response.body.detail).toBe('string');
      expect((await status(user, id)).domains).toEqual([]);
    });

    it('a Unicode look-alike of another name → 400 HOSTING.INVALID_DOMAIN, nothing added', async () => {
      const { user, id } = await projectOf();
      for (const fake of ['pаypal.com', 'аpple.com', 'shop.gооgle.com']) {
        const response = await t.http().post(`/api/fly/certificates/${id}`).set(user.auth).send({ domain_name: fake });
        expect(response.status).toBe(400);
        expect(response.body.code).toBe('HOSTING.INVALID_DOMAIN');
      }
      expect((await status(user, id)).domains).toEqual([]);
    });

    it.each([['my.site'], ['../admin'], ['a/b'], ['www'], ['-x'], ['a'.repeat(64)], ['ünï']])('slug %j → 400 HOSTING.INVALID_SLUG', async (slug) => {
      const { user, id } = await projectOf();
      const response = await publish(user, id, { slug });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('HOSTING.INVALID_SLUG');
      expect(await status(user, id)).toMatchObject({ status: 'never_published', releases: [] });
    });

    it('public routes with odd slugs are 404', async () => {
      for (const path of ['/api/hosting/sites/a.b', '/api/hosting/sites/..%2F..', '/api/hosting/sites/%00', '/api/hosting/sites/x/screenshot.png']) {
        expect((await t.http().get(path)).status).toBe(404);
      }
      for (const domain of ['', '127.0.0.1', 'localhost', 'x'.repeat(400)]) expect((await tls(domain)).status).toBe(404);
      expect((await t.http().get('/api/hosting/tls-allowed')).status).toBe(404);
    });

    it("another user's project id is 404 on every route, and their project is untouched", async () => {
      const owner = await projectOf();
      const ownerSite = (await publish(owner.user, owner.id).expect(200)).body;
      await t.http().post(`/api/fly/certificates/${owner.id}`).set(owner.user.auth).send({ domain_name: 'owner.example.com' }).expect(201);
      const { user: mallory } = await projectOf();
      const calls = [
        publish(mallory, owner.id),
        t.http().delete('/api/fly/destroy-app').set(mallory.auth).send({ project_id: owner.id }),
        t.http().post('/api/fly/restart-app').set(mallory.auth).send({ project_id: owner.id, publish: false }),
        t.http().post('/api/fly/rollback').set(mallory.auth).send({ project_id: owner.id, release_id: ownerSite.current_release.id }),
        t.http().post(`/api/fly/certificates/${owner.id}`).set(mallory.auth).send({ domain_name: 'mallory.example.com' }),
        t.http().delete(`/api/fly/certificates/${owner.id}`).set(mallory.auth).send({ domain_name: 'owner.example.com' }),
        t.http().post('/api/fly/verify-dns').set(mallory.auth).send({ domain: 'owner.example.com' }),
        t.http().post('/api/fly/take-screenshot').set(mallory.auth).send({ project_id: owner.id }),
        t.http().get(`/api/fly/machine-status?project_id=${owner.id}`).set(mallory.auth),
        t.http().get(`/api/fly/machine-status?project_id=${randomUUID()}`).set(mallory.auth),
      ];
      for (const response of await Promise.all(calls)) expect(response.status).toBe(404);
      expect(await status(owner.user, owner.id)).toMatchObject({ status: 'live', current_release: ownerSite.current_release, domains: [{ domain: 'owner.example.com' }] });
    });

    it('bodies are validated: unknown fields, a wrong region, a non-UUID project id are 400', async () => {
      const { user, id } = await projectOf();
      for (const body of [{ project_id: id, publish: true, domain: 'x.example.com' }, { project_id: id, publish: true, region: 'iad' }, { project_id: 'nope', publish: true }, { project_id: id }]) {
        const response = await t.http().post('/api/fly/create-project').set(user.auth).send(body);
        expect(response.status).toBe(400);
        expect(response.body.code).toBe('VALIDATION_FAILED');
      }
      expect((await t.http().post('/api/fly/create-project').send({ project_id: id, publish: true })).status).toBe(401);
    });
  });
});

import { describe, expect, it } from '@jest/globals';
import { DAY_MS } from '../../testing/fixed-clock.js';
import { FAKE_PNG } from '../../testing/in-memory-hosting.js';
import { type HostingKit, createHostingKit } from '../../testing/hosting-kit.js';
import { signUp } from '../../testing/test-kit.js';

/** Ana on Pro with one project whose sandbox exists; Bob on Pro too. */
async function setUp(plan = 'pro_monthly') {
  const k = createHostingKit();
  k.clock.set(new Date('2026-03-01T10:00:00Z'));
  for (const user of ['ana', 'bob']) {
    await signUp(k, user);
    if (plan !== 'free') expect((await k.changePlan.execute({ userId: user, planId: plan })).ok).toBe(true);
  }
  const created = await k.createProject.execute({ creatorId: 'ana', name: 'Pantry' });
  if (!created.ok) throw new Error(created.error.message);
  await k.sandboxes.ensure(created.value.id);
  return { k, projectId: created.value.id };
}

async function published(k: HostingKit, projectId: string) {
  const r = await k.publish.execute({ userId: 'ana', projectId });
  if (!r.ok) throw new Error(`publish failed: ${r.error.code}`);
  return r.value;
}

async function snapshot(k: HostingKit, projectId: string) {
  return {
    project: await k.projects.findById(projectId),
    site: await k.hosting.findSite(projectId),
    releases: await k.hosting.listReleases(projectId),
    domains: await k.hosting.listDomains(projectId),
    credits: await k.ledger.summary('ana'),
  };
}

describe('PublishProject', () => {
  it('builds release 1 of the latest version, serves it on the Kiln host and marks the project published', async () => {
    const { k, projectId } = await setUp();
    const { site, release } = await published(k, projectId);
    const project = await k.projects.findById(projectId);
    const [latest] = await k.sandboxes.versionHistory(projectId);
    expect(release).toMatchObject({ number: 1, commit: latest?.hash, sizeBytes: 1024, fileCount: 3 });
    expect(site).toMatchObject({ status: 'live', slug: project?.slug, currentReleaseId: release.id });
    expect(project?.domain).toBe(`${site.slug}.apps.kiln.test`);
    expect(k.provider.served(`${site.slug}.apps.kiln.test`)).toBe(release.id);
    const status = await k.status.execute({ userId: 'ana', projectId });
    expect(status.ok && status.value).toMatchObject({ status: 'live', url: `http://${site.slug}.apps.kiln.test`, currentRelease: release });
  });

  it('a failed build publishes nothing, changes nothing and answers the log', async () => {
    const { k, projectId } = await setUp();
    const first = await published(k, projectId);
    const before = await snapshot(k, projectId);
    k.provider.buildFails = 'src/App.tsx(3,1): error TS1005';
    const r = await k.publish.execute({ userId: 'ana', projectId });
    expect(r).toEqual({ ok: false, error: expect.objectContaining({ code: 'HOSTING.BUILD_FAILED', log: 'src/App.tsx(3,1): error TS1005' }) });
    expect(await snapshot(k, projectId)).toEqual(before);
    expect(k.provider.served(`${first.site.slug}.apps.kiln.test`)).toBe(first.release.id);
  });

  it('while an AI turn holds the project, publishing is PROJECTS.BUSY and builds nothing', async () => {
    const { k, projectId } = await setUp();
    let release: () => void = () => undefined;
    const turn = k.lock.run(projectId, () => new Promise<void>((resolve) => (release = resolve)));
    expect(await k.publish.execute({ userId: 'ana', projectId })).toMatchObject({ ok: false, error: { code: 'PROJECTS.BUSY' } });
    expect(k.provider.builds).toEqual([]);
    release();
    await turn;
    expect((await k.publish.execute({ userId: 'ana', projectId })).ok).toBe(true);
  });

  it('a never-published project whose build fails stays never published', async () => {
    const { k, projectId } = await setUp();
    k.provider.buildFails = 'boom';
    expect((await k.publish.execute({ userId: 'ana', projectId })).ok).toBe(false);
    const status = await k.status.execute({ userId: 'ana', projectId });
    expect(status.ok && status.value.status).toBe('never_published');
    expect((await k.projects.findById(projectId))?.domain).toBeNull();
  });

  it('free plan: SPEC §8 "doesn\'t include", nothing built', async () => {
    const { k, projectId } = await setUp('free');
    const r = await k.publish.execute({ userId: 'ana', projectId });
    expect(!r.ok && r.error).toMatchObject({ code: 'PUBLISHING.NOT_INCLUDED', limitType: 'published' });
    expect(k.provider.builds).toEqual([]);
  });

  it("another user's project is not found; a project without a sandbox has nothing to publish", async () => {
    const { k, projectId } = await setUp();
    expect(await k.publish.execute({ userId: 'bob', projectId })).toMatchObject({ ok: false, error: { code: 'PROJECTS.NOT_FOUND' } });
    const bare = await k.createProject.execute({ creatorId: 'ana', name: 'Bare' });
    if (!bare.ok) throw new Error('setup');
    expect(await k.publish.execute({ userId: 'ana', projectId: bare.value.id })).toMatchObject({ ok: false, error: { code: 'HOSTING.NOTHING_TO_PUBLISH' } });
  });

  it('a chosen slug is validated and unique; a renamed site leaves its old host', async () => {
    const { k, projectId } = await setUp();
    for (const slug of ['my.shop', '../x', 'www', 'a/b']) {
      expect(await k.publish.execute({ userId: 'ana', projectId, slug })).toMatchObject({ ok: false, error: { code: 'HOSTING.INVALID_SLUG' } });
    }
    const first = await published(k, projectId);
    const r = await k.publish.execute({ userId: 'ana', projectId, slug: 'pantry' });
    expect(r.ok).toBe(true);
    expect(k.provider.served('pantry.apps.kiln.test')).not.toBeNull();
    expect(k.provider.served(`${first.site.slug}.apps.kiln.test`)).toBeNull();
    const other = await k.createProject.execute({ creatorId: 'bob', name: 'Other' });
    if (!other.ok) throw new Error('setup');
    await k.sandboxes.ensure(other.value.id);
    expect(await k.publish.execute({ userId: 'bob', projectId: other.value.id, slug: 'pantry' })).toMatchObject({
      ok: false,
      error: { code: 'HOSTING.SLUG_TAKEN' },
    });
  });

  it('publishing again makes release 2; rollback serves release 1 at once; unpublish keeps the releases', async () => {
    const { k, projectId } = await setUp();
    const one = await published(k, projectId);
    k.clock.advance(DAY_MS);
    const two = await published(k, projectId);
    expect(two.release.number).toBe(2);
    const host = `${one.site.slug}.apps.kiln.test`;
    expect(k.provider.served(host)).toBe(two.release.id);
    const builds = k.provider.builds.length;
    expect((await k.rollback.execute({ userId: 'ana', projectId, releaseId: one.release.id })).ok).toBe(true);
    expect(k.provider.served(host)).toBe(one.release.id);
    expect(k.provider.builds).toHaveLength(builds);
    expect(await k.rollback.execute({ userId: 'ana', projectId, releaseId: 'nope' })).toMatchObject({ ok: false, error: { code: 'HOSTING.RELEASE_NOT_FOUND' } });
    expect((await k.unpublish.execute({ userId: 'ana', projectId })).ok).toBe(true);
    expect(k.provider.served(host)).toBeNull();
    expect((await k.projects.findById(projectId))?.domain).toBeNull();
    expect(await k.hosting.listReleases(projectId)).toHaveLength(2);
    expect(await k.unpublish.execute({ userId: 'ana', projectId })).toMatchObject({ ok: false, error: { code: 'HOSTING.NOT_PUBLISHED' } });
    expect(await k.rollback.execute({ userId: 'ana', projectId, releaseId: one.release.id })).toMatchObject({ ok: false, error: { code: 'HOSTING.NOT_PUBLISHED' } });
  });
});

describe('custom domains', () => {
  it('add → records; verify through DNS → certificate → active and served; remove → route gone', async () => {
    const { k, projectId } = await setUp();
    const { release } = await published(k, projectId);
    const added = await k.addDomain.execute({ userId: 'ana', projectId, domainName: 'Shop.Example.com.' });
    if (!added.ok) throw new Error(added.error.code);
    const { domain, records } = added.value;
    expect(domain).toMatchObject({ host: 'shop.example.com', status: 'pending' });
    expect(domain.verificationToken).toMatch(/^kiln-verify-[a-z0-9]{32}$/);
    expect(records).toEqual([
      { type: 'TXT', name: '_kiln-challenge.shop.example.com', value: domain.verificationToken },
      { type: 'CNAME', name: 'shop.example.com', value: 'apps.kiln.test' },
    ]);

    // Only the TXT: not verified, still waiting for DNS with the reason, nothing served.
    k.dns.setTxt('_kiln-challenge.shop.example.com', domain.verificationToken);
    const early = await k.verifyDomain.execute({ userId: 'ana', domainName: 'shop.example.com' });
    expect(early.ok && early.value).toMatchObject({ verified: false, txtFound: true, targetFound: false, domain: { domain: { status: 'pending' } } });
    expect(early.ok && early.value.domain.domain.failureReason).toContain('apps.kiln.test');
    expect(await k.tlsAllowed.execute('shop.example.com')).toBe(false);

    k.dns.setCname('shop.example.com', 'apps.kiln.test.');
    const done = await k.verifyDomain.execute({ userId: 'ana', domainName: 'shop.example.com' });
    expect(done.ok && done.value).toMatchObject({ verified: true, domain: { domain: { status: 'active', failureReason: null }, url: 'http://shop.example.com' } });
    expect(k.certificates.requested).toEqual(['shop.example.com']);
    expect(k.provider.served('shop.example.com')).toBe(release.id);
    expect(await k.tlsAllowed.execute('shop.example.com')).toBe(true);

    expect((await k.removeDomain.execute({ userId: 'ana', projectId, domainName: 'shop.example.com' })).ok).toBe(true);
    expect(k.provider.served('shop.example.com')).toBeNull();
    expect(await k.tlsAllowed.execute('shop.example.com')).toBe(false);
  });

  it('an apex needs A/AAAA records that are all Kiln addresses', async () => {
    const { k, projectId } = await setUp();
    await published(k, projectId);
    const added = await k.addDomain.execute({ userId: 'ana', projectId, domainName: 'example.org' });
    if (!added.ok) throw new Error(added.error.code);
    expect(added.value.records.slice(1)).toEqual([
      { type: 'A', name: 'example.org', value: '203.0.113.7' },
      { type: 'AAAA', name: 'example.org', value: '2001:db8::7' },
    ]);
    k.dns.setTxt('_kiln-challenge.example.org', 'other', added.value.domain.verificationToken);
    k.dns.setAddresses('example.org', '203.0.113.7', '198.51.100.1');
    expect((await k.verifyDomain.execute({ userId: 'ana', domainName: 'example.org' })).ok && k.provider.served('example.org')).toBeNull();
    k.dns.setAddresses('example.org', '203.0.113.7');
    const r = await k.verifyDomain.execute({ userId: 'ana', domainName: 'example.org' });
    expect(r.ok && r.value.domain.domain.status).toBe('active');
  });

  it('a failed certificate leaves the domain failed with the reason; verifying again can succeed', async () => {
    const { k, projectId } = await setUp();
    await published(k, projectId);
    const added = await k.addDomain.execute({ userId: 'ana', projectId, domainName: 'www.example.net' });
    if (!added.ok) throw new Error(added.error.code);
    k.dns.setTxt('_kiln-challenge.www.example.net', added.value.domain.verificationToken);
    k.dns.setCname('www.example.net', 'apps.kiln.test');
    k.certificates.outcome = { kind: 'failed', reason: 'rate limited' };
    const failed = await k.verifyDomain.execute({ userId: 'ana', domainName: 'www.example.net' });
    expect(failed.ok && failed.value).toMatchObject({ verified: false, domain: { domain: { status: 'failed', failureReason: 'The certificate could not be issued: rate limited' } } });
    k.certificates.outcome = { kind: 'not-needed' };
    const again = await k.verifyDomain.execute({ userId: 'ana', domainName: 'www.example.net' });
    expect(again.ok && again.value.domain.domain.status).toBe('active');
  });

  it('a verification interrupted after "verified" carries on to active; a project has at most 10 domains', async () => {
    const { k, projectId } = await setUp();
    await published(k, projectId);
    const added = await k.addDomain.execute({ userId: 'ana', projectId, domainName: 'a.example.com' });
    if (!added.ok) throw new Error(added.error.code);
    await k.hosting.saveDomain({ ...added.value.domain, status: 'verified' });
    k.dns.setTxt('_kiln-challenge.a.example.com', added.value.domain.verificationToken);
    k.dns.setCname('a.example.com', 'apps.kiln.test');
    const r = await k.verifyDomain.execute({ userId: 'ana', domainName: 'a.example.com' });
    expect(r.ok && r.value.domain.domain.status).toBe('active');
    for (let i = 1; i < 10; i += 1) expect((await k.addDomain.execute({ userId: 'ana', projectId, domainName: `d${i}.example.com` })).ok).toBe(true);
    expect(await k.addDomain.execute({ userId: 'ana', projectId, domainName: 'one-more.example.com' })).toMatchObject({
      ok: false,
      error: { code: 'HOSTING.TOO_MANY_DOMAINS', limit: 10 },
    });
  });

  it("another project's unverified claim on a host lapses after 7 days; a verified one never does", async () => {
    const { k, projectId } = await setUp();
    const bobs = await k.createProject.execute({ creatorId: 'bob', name: 'Squat' });
    if (!bobs.ok) throw new Error('setup');
    expect((await k.addDomain.execute({ userId: 'bob', projectId: bobs.value.id, domainName: 'shop.example.com' })).ok).toBe(true);
    k.clock.advance(6 * DAY_MS);
    expect(await k.addDomain.execute({ userId: 'ana', projectId, domainName: 'shop.example.com' })).toMatchObject({ ok: false, error: { code: 'HOSTING.DOMAIN_TAKEN' } });
    k.clock.advance(DAY_MS);
    const taken = await k.addDomain.execute({ userId: 'ana', projectId, domainName: 'shop.example.com' });
    expect(taken.ok && taken.value.domain.projectId).toBe(projectId);
    expect(await k.hosting.listDomains(bobs.value.id)).toEqual([]);
    // Ana verifies it: from now on nobody else can take it, however old.
    if (!taken.ok) throw new Error('setup');
    k.dns.setTxt('_kiln-challenge.shop.example.com', taken.value.domain.verificationToken);
    k.dns.setCname('shop.example.com', 'apps.kiln.test');
    expect((await k.verifyDomain.execute({ userId: 'ana', domainName: 'shop.example.com' })).ok).toBe(true);
    k.clock.advance(30 * DAY_MS);
    expect(await k.addDomain.execute({ userId: 'bob', projectId: bobs.value.id, domainName: 'shop.example.com' })).toMatchObject({
      ok: false,
      error: { code: 'HOSTING.DOMAIN_TAKEN' },
    });
  });

  it('DNS unavailable is an error to retry, and changes nothing', async () => {
    const { k, projectId } = await setUp();
    const added = await k.addDomain.execute({ userId: 'ana', projectId, domainName: 'shop.example.com' });
    if (!added.ok) throw new Error(added.error.code);
    k.dns.unavailable = true;
    expect(await k.verifyDomain.execute({ userId: 'ana', domainName: 'shop.example.com' })).toMatchObject({ ok: false, error: { code: 'HOSTING.DNS_UNAVAILABLE' } });
    expect((await k.hosting.findDomainByHost('shop.example.com'))?.status).toBe('pending');
  });

  it('hostile names, taken hosts, other people and the free plan are refused, and nothing is stored', async () => {
    const { k, projectId } = await setUp();
    for (const name of ['127.0.0.1', '[::1]', 'localhost', 'x.localhost', 'pantry.apps.kiln.test', `${'a'.repeat(300)}.com`, 'a/b.com']) {
      expect(await k.addDomain.execute({ userId: 'ana', projectId, domainName: name })).toMatchObject({ ok: false, error: { code: 'HOSTING.INVALID_DOMAIN' } });
    }
    expect(await k.addDomain.execute({ userId: 'bob', projectId, domainName: 'shop.example.com' })).toMatchObject({ ok: false, error: { code: 'PROJECTS.NOT_FOUND' } });
    expect(await k.hosting.listDomains(projectId)).toEqual([]);
    expect((await k.addDomain.execute({ userId: 'ana', projectId, domainName: 'shop.example.com' })).ok).toBe(true);
    expect(await k.addDomain.execute({ userId: 'ana', projectId, domainName: 'SHOP.example.com' })).toMatchObject({ ok: false, error: { code: 'HOSTING.DOMAIN_TAKEN' } });
    // Bob cannot verify or remove Ana's domain: it answers like a missing one.
    expect(await k.verifyDomain.execute({ userId: 'bob', domainName: 'shop.example.com' })).toMatchObject({ ok: false, error: { code: 'HOSTING.DOMAIN_NOT_FOUND' } });
    expect(await k.removeDomain.execute({ userId: 'bob', projectId, domainName: 'shop.example.com' })).toMatchObject({ ok: false, error: { code: 'PROJECTS.NOT_FOUND' } });
    const free = await setUp('free');
    expect(await free.k.addDomain.execute({ userId: 'ana', projectId: free.projectId, domainName: 'shop.example.com' })).toMatchObject({
      ok: false,
      error: { code: 'PUBLISHING.NOT_INCLUDED', message: "Your Free plan doesn't include domain connections. Please upgrade to connect a custom domain." },
    });
  });
});

describe('deleting a published project', () => {
  it('takes its site down everywhere: hosts, custom domains, TLS, the public page, the release folders', async () => {
    const { k, projectId } = await setUp();
    const { site, release } = await published(k, projectId);
    const added = await k.addDomain.execute({ userId: 'ana', projectId, domainName: 'shop.example.com' });
    if (!added.ok) throw new Error(added.error.code);
    k.dns.setTxt('_kiln-challenge.shop.example.com', added.value.domain.verificationToken);
    k.dns.setCname('shop.example.com', 'apps.kiln.test');
    expect((await k.verifyDomain.execute({ userId: 'ana', domainName: 'shop.example.com' })).ok).toBe(true);
    expect(k.provider.served('shop.example.com')).toBe(release.id);
    expect((await k.deleteProject.execute('ana', projectId)).ok).toBe(true);
    expect(k.provider.served(`${site.slug}.apps.kiln.test`)).toBeNull();
    expect(k.provider.served('shop.example.com')).toBeNull();
    expect(k.provider.hasRelease(release.id)).toBe(false);
    expect(await k.tlsAllowed.execute('shop.example.com')).toBe(false);
    expect(await k.publicSite.execute(site.slug)).toBeNull();
    expect(await k.kit.projects.countPublishedByCreator('ana')).toBe(0);
  });
});

describe('public questions', () => {
  it('the TLS ask allows a live Kiln host only; a public site and its screenshot only while live', async () => {
    const { k, projectId } = await setUp();
    expect(await k.publicSite.execute('anything')).toBeNull();
    const { site } = await published(k, projectId);
    expect(await k.tlsAllowed.execute(`${site.slug}.apps.kiln.test`)).toBe(true);
    expect(await k.tlsAllowed.execute('unknown.apps.kiln.test')).toBe(false);
    expect(await k.tlsAllowed.execute('127.0.0.1')).toBe(false);
    expect(await k.publicScreenshot.execute(site.slug)).toBeNull();
    const shot = await k.screenshot.execute({ userId: 'ana', projectId });
    expect(shot.ok).toBe(true);
    expect(k.screenshotter.captured).toEqual([`http://${site.slug}.apps.kiln.test`]);
    expect((await k.publicScreenshot.execute(site.slug))?.png).toEqual(FAKE_PNG);
    expect(await k.publicSite.execute(site.slug)).toMatchObject({ name: 'Pantry', slug: site.slug, url: `http://${site.slug}.apps.kiln.test` });
    expect(await k.publicSite.execute(`${site.slug}.evil`)).toBeNull();
    await k.unpublish.execute({ userId: 'ana', projectId });
    expect(await k.tlsAllowed.execute(`${site.slug}.apps.kiln.test`)).toBe(false);
    expect(await k.publicSite.execute(site.slug)).toBeNull();
    expect(await k.publicScreenshot.execute(site.slug)).toBeNull();
    expect(await k.screenshot.execute({ userId: 'ana', projectId })).toMatchObject({ ok: false, error: { code: 'HOSTING.NOT_PUBLISHED' } });
  });
});

describe('ListPublishedSites (the home cards)', () => {
  it("answers each of the caller's sites in one go: live ones with URL and screenshot time, others without; no one else's, no deleted project's", async () => {
    const { k, projectId } = await setUp();
    const project = async (user: string, name: string) => {
      const created = await k.createProject.execute({ creatorId: user, name });
      if (!created.ok) throw new Error(created.error.message);
      await k.sandboxes.ensure(created.value.id);
      return created.value.id;
    };
    const [paused, neverBuilt, untouched, gone] = [await project('ana', 'Paused'), await project('ana', 'Reserved'), await project('ana', 'Idea'), await project('ana', 'Gone')];
    const bobs = await project('bob', 'Bob’s');
    expect(await k.sites.execute('ana')).toEqual([]);

    const { site } = await published(k, projectId);
    k.clock.advance(60_000);
    expect((await k.screenshot.execute({ userId: 'ana', projectId })).ok).toBe(true);
    const pausedSite = (await published(k, paused)).site;
    expect((await k.screenshot.execute({ userId: 'ana', projectId: paused })).ok).toBe(true);
    expect((await k.unpublish.execute({ userId: 'ana', projectId: paused })).ok).toBe(true);
    await k.hosting.saveSite({ projectId: neverBuilt, slug: 'reserved', currentReleaseId: null, status: 'unpublished', publishedAt: null, updatedAt: k.clock.now() });
    expect((await k.publish.execute({ userId: 'bob', projectId: bobs })).ok).toBe(true);
    await published(k, gone);
    expect((await k.deleteProject.execute('ana', gone)).ok).toBe(true);

    const sites = await k.sites.execute('ana');
    expect([...sites].sort((a, b) => a.slug.localeCompare(b.slug))).toEqual(
      [
        { projectId, status: 'live', slug: site.slug, url: `http://${site.slug}.apps.kiln.test`, screenshotTakenAt: new Date('2026-03-01T10:01:00Z') },
        // Unpublished: the slug is kept, but neither the URL nor the picture is public any more.
        { projectId: paused, status: 'unpublished', slug: pausedSite.slug, url: null, screenshotTakenAt: null },
        { projectId: neverBuilt, status: 'never_published', slug: 'reserved', url: null, screenshotTakenAt: null },
      ].sort((a, b) => a.slug.localeCompare(b.slug)),
    );
    expect(sites.map((s) => s.projectId)).not.toContain(untouched);
    expect((await k.sites.execute('bob')).map((s) => s.projectId)).toEqual([bobs]);
    expect(await k.sites.execute('nobody')).toEqual([]);
  });
});

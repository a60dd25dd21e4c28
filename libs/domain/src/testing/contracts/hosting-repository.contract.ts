import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { CustomDomain } from '../../hosting/custom-domain.entity.js';
import { markActive, markCertificateIssued, markFailed, markVerified, newCustomDomain } from '../../hosting/custom-domain-lifecycle.js';
import type { HostingRepository } from '../../hosting/hosting-repository.port.js';
import type { PublishedSite } from '../../hosting/published-site.entity.js';
import type { Release } from '../../hosting/release.entity.js';

export interface HostingRepositoryHarness {
  readonly hosting: HostingRepository;
  /** A fresh project id no other test uses (adapters may need the project and its creator to exist). */
  newProject(): Promise<string>;
  close?(): Promise<void>;
}

const at = (minutes: number) => new Date(Date.UTC(2026, 2, 1, 10, 0, 0, 0) + minutes * 60_000 + 7);
const codeOf = (error: unknown) => (error as { code?: unknown }).code;

/**
 * The HostingRepository contract: sites, releases, domains and screenshots round-trip; a slug
 * belongs to one project, a release number to one release of a project, a host to one domain —
 * also when concurrent writers race for them (the unique indexes are the final guarantee).
 */
export function hostingRepositoryContract(name: string, makeHarness: () => Promise<HostingRepositoryHarness>): void {
  describe(`HostingRepository contract: ${name}`, () => {
    let h: HostingRepositoryHarness;
    let n = 0;
    const uid = (prefix: string) => `${prefix}-${(n += 1)}-${Math.floor(Math.random() * 1e9).toString(36)}`;
    const site = (projectId: string, fields: Partial<PublishedSite> = {}): PublishedSite => ({
      projectId,
      slug: uid('site'),
      currentReleaseId: null,
      status: 'unpublished',
      publishedAt: null,
      updatedAt: at(1),
      ...fields,
    });
    const release = (projectId: string, number: number): Release => ({
      id: uid('release'),
      projectId,
      number,
      commit: 'abc1234',
      sizeBytes: 2048 + number,
      fileCount: 4,
      createdAt: at(number),
    });
    const domain = (projectId: string, host = `${uid('shop')}.example.com`): CustomDomain =>
      newCustomDomain({ id: uid('domain'), projectId, host, verificationToken: uid('kiln-verify') }, at(2));

    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h.close?.();
    });

    it('stores a site, finds it by project and slug, and replaces it', async () => {
      const projectId = await h.newProject();
      expect(await h.hosting.findSite(projectId)).toBeNull();
      const s = site(projectId);
      await h.hosting.saveSite(s);
      expect(await h.hosting.findSite(projectId)).toEqual(s);
      expect(await h.hosting.findSiteBySlug(s.slug)).toEqual(s);
      const r = release(projectId, 1);
      await h.hosting.addRelease(r);
      const live = { ...s, slug: uid('renamed'), status: 'live' as const, currentReleaseId: r.id, publishedAt: at(5), updatedAt: at(5) };
      await h.hosting.saveSite(live);
      expect(await h.hosting.findSite(projectId)).toEqual(live);
      expect(await h.hosting.findSiteBySlug(s.slug)).toBeNull();
      expect(await h.hosting.findSiteBySlug('no-such-slug')).toBeNull();
    });

    it('a slug belongs to one project: 8 concurrent claims, one wins, the others are SLUG_TAKEN', async () => {
      const projects = await Promise.all(Array.from({ length: 8 }, () => h.newProject()));
      const slug = uid('contested');
      const results = await Promise.allSettled(projects.map((p) => h.hosting.saveSite(site(p, { slug }))));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(codeOf(r.reason)).toBe('HOSTING.SLUG_TAKEN');
      const holder = await h.hosting.findSiteBySlug(slug);
      expect(projects).toContain(holder?.projectId);
      // The holder may save its site again with the same slug.
      if (holder) await h.hosting.saveSite({ ...holder, updatedAt: at(9) });
    });

    it('lists the sites of several projects in one read, with their screenshot times; projects without a site and others are left out', async () => {
      const [withShot, withoutShot, noSite, other] = await Promise.all(Array.from({ length: 4 }, () => h.newProject())) as [string, string, string, string];
      const r = release(withShot, 1);
      await h.hosting.addRelease(r);
      const live = site(withShot, { status: 'live', currentReleaseId: r.id, publishedAt: at(3), updatedAt: at(3) });
      const unpublished = site(withoutShot);
      await h.hosting.saveSite(live);
      await h.hosting.saveSite(unpublished);
      await h.hosting.saveSite(site(other));
      await h.hosting.saveScreenshot(withShot, new Uint8Array([0x89, 0x50]), at(4));
      await h.hosting.saveScreenshot(noSite, new Uint8Array([0x89, 0x50]), at(4));
      const listed = await h.hosting.listSites([withoutShot, noSite, withShot, withShot]);
      expect([...listed].sort((a, b) => a.site.projectId.localeCompare(b.site.projectId))).toEqual(
        [
          { site: live, screenshotTakenAt: at(4) },
          { site: unpublished, screenshotTakenAt: null },
        ].sort((a, b) => a.site.projectId.localeCompare(b.site.projectId)),
      );
      expect(await h.hosting.listSites([])).toEqual([]);
      expect(await h.hosting.listSites(['no-such-project'])).toEqual([]);
    });

    it('releases: listed newest first, found only under their project, a number taken once even under concurrency', async () => {
      const projectId = await h.newProject();
      const other = await h.newProject();
      const one = release(projectId, 1);
      const two = release(projectId, 2);
      await h.hosting.addRelease(one);
      await h.hosting.addRelease(two);
      await h.hosting.addRelease(release(other, 1));
      expect(await h.hosting.listReleases(projectId)).toEqual([two, one]);
      expect(await h.hosting.findRelease(projectId, one.id)).toEqual(one);
      expect(await h.hosting.findRelease(other, one.id)).toBeNull();
      expect(await h.hosting.findRelease(projectId, 'no-such-release')).toBeNull();
      const racers = Array.from({ length: 6 }, () => release(projectId, 3));
      const results = await Promise.allSettled(racers.map((r) => h.hosting.addRelease(r)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect((await h.hosting.listReleases(projectId)).map((r) => r.number)).toEqual([3, 2, 1]);
    });

    it('domains: a host belongs to one domain of one project, even when 6 projects add it at once', async () => {
      const projects = await Promise.all(Array.from({ length: 6 }, () => h.newProject()));
      const host = `${uid('race')}.example.com`;
      const results = await Promise.allSettled(projects.map((p) => h.hosting.addDomain(domain(p, host))));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(codeOf(r.reason)).toBe('HOSTING.DOMAIN_TAKEN');
      const stored = await h.hosting.findDomainByHost(host);
      expect(projects).toContain(stored?.projectId);
    });

    it('domains: stored, listed per project oldest first, moved through their life, removed', async () => {
      const projectId = await h.newProject();
      const first = domain(projectId);
      const second = { ...domain(projectId), createdAt: at(3), updatedAt: at(3) };
      await h.hosting.addDomain(first);
      await h.hosting.addDomain(second);
      expect(await h.hosting.listDomains(projectId)).toEqual([first, second]);
      expect(await h.hosting.findDomainByHost(first.host)).toEqual(first);
      const failed = markFailed(first, 'The TXT record was not found.', at(4));
      await h.hosting.saveDomain(failed);
      expect(await h.hosting.findDomainByHost(first.host)).toEqual(failed);
      const active = markActive(markCertificateIssued(markVerified(failed, at(5)), at(6)), at(7));
      await h.hosting.saveDomain(active);
      expect(await h.hosting.findDomainByHost(first.host)).toEqual(active);
      await h.hosting.removeDomain(first.id);
      expect(await h.hosting.findDomainByHost(first.host)).toBeNull();
      expect(await h.hosting.listDomains(projectId)).toEqual([second]);
      // A removed host may be added again (by anyone).
      await h.hosting.addDomain(domain(await h.newProject(), first.host));
    });

    it('screenshots: the latest one per project, bytes exact', async () => {
      const projectId = await h.newProject();
      expect(await h.hosting.findScreenshot(projectId)).toBeNull();
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255, 1, 2]);
      await h.hosting.saveScreenshot(projectId, png, at(1));
      await h.hosting.saveScreenshot(projectId, new Uint8Array([...png, 9]), at(2));
      const shot = await h.hosting.findScreenshot(projectId);
      expect(shot?.takenAt).toEqual(at(2));
      expect([...(shot?.png ?? [])]).toEqual([...png, 9]);
    });
  });
}

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { HostingProvider } from '../../hosting/hosting-provider.port.js';

/** What the HostingProvider suite runs against. */
export interface HostingProviderHarness {
  readonly provider: HostingProvider;
  /** A new sandbox whose production build passes ('builds') or fails with errors ('fails'); answers its id. */
  sandbox(kind: 'builds' | 'fails'): Promise<string>;
  /** The release a host serves now, or null. */
  served(host: string): Promise<string | null>;
  close?(): Promise<void>;
}

/**
 * The HostingProvider contract (docs/hosting.md): a build stores a release without serving it; a
 * failed build stores nothing and answers its log; activation points hosts at a release (and
 * back: rollback), deactivation stops them, discarding a project's releases stops its hosts too;
 * a host name that could become a path elsewhere is refused and changes nothing.
 */
export function hostingProviderContract(name: string, makeHarness: () => Promise<HostingProviderHarness>): void {
  describe(`HostingProvider contract: ${name}`, () => {
    let h: HostingProviderHarness;
    let n = 0;
    const id = (what: string) => `contract-${what}-${++n}`;
    /** Two releases of one project built from one sandbox. */
    let project: string;
    let first: string;
    let second: string;

    beforeAll(async () => {
      h = await makeHarness();
      project = id('project');
      const sandbox = await h.sandbox('builds');
      first = id('release');
      second = id('release');
      for (const releaseId of [first, second]) {
        const build = await h.provider.buildRelease({ sandboxId: sandbox, projectId: project, releaseId });
        if (build.kind !== 'built') throw new Error(`The build failed: ${build.log}`);
      }
    }, 240_000);
    afterAll(async () => {
      await h?.close?.();
    }, 60_000);

    it('builds a release with its size and file count, and serves it nowhere yet', async () => {
      const sandbox = await h.sandbox('builds');
      const releaseId = id('release');
      const build = await h.provider.buildRelease({ sandboxId: sandbox, projectId: id('project'), releaseId });
      expect(build).toEqual({ kind: 'built', sizeBytes: expect.any(Number), fileCount: expect.any(Number), log: expect.any(String) });
      if (build.kind !== 'built') return;
      expect(build.sizeBytes).toBeGreaterThan(0);
      expect(build.fileCount).toBeGreaterThan(0);
      expect(await h.served(`${releaseId}.apps.example.test`)).toBeNull();
    }, 120_000);

    it('refuses to build over an existing release', async () => {
      const sandbox = await h.sandbox('builds');
      await expect(h.provider.buildRelease({ sandboxId: sandbox, projectId: project, releaseId: first })).rejects.toThrow();
    }, 120_000);

    it('answers a failed build with its log, and stores nothing that could be served', async () => {
      const sandbox = await h.sandbox('fails');
      const releaseId = id('broken');
      const build = await h.provider.buildRelease({ sandboxId: sandbox, projectId: id('project'), releaseId });
      expect(build.kind).toBe('failed');
      expect(build.log.trim()).not.toBe('');
      await expect(h.provider.activate({ slug: 'broken', releaseId, hosts: ['broken.apps.example.test'] })).rejects.toThrow();
      expect(await h.served('broken.apps.example.test')).toBeNull();
    }, 120_000);

    it('serves a release on every host of the route, switches to another, and rolls back', async () => {
      const hosts = ['shop.apps.example.test', 'www.shop-example.test'];
      await h.provider.activate({ slug: 'shop', releaseId: first, hosts });
      for (const host of hosts) expect(await h.served(host)).toBe(first);
      await h.provider.activate({ slug: 'shop', releaseId: second, hosts });
      for (const host of hosts) expect(await h.served(host)).toBe(second);
      await h.provider.activate({ slug: 'shop', releaseId: first, hosts });
      for (const host of hosts) expect(await h.served(host)).toBe(first);
    });

    it('treats host names case-insensitively', async () => {
      await h.provider.activate({ slug: 'case', releaseId: second, hosts: ['Case.Apps.Example.TEST'] });
      expect(await h.served('case.apps.example.test')).toBe(second);
    });

    it('refuses an unknown release and leaves the hosts as they were', async () => {
      await h.provider.activate({ slug: 'keep', releaseId: first, hosts: ['keep.apps.example.test'] });
      await expect(h.provider.activate({ slug: 'keep', releaseId: 'no-such-release', hosts: ['keep.apps.example.test'] })).rejects.toThrow();
      expect(await h.served('keep.apps.example.test')).toBe(first);
    });

    it.each(['../etc', 'a/b', '..', '.', '', 'evil.test/../../x', 'sp ace.test', 'nul\0.test', '-lead.test', 'x'.repeat(64) + '.test'])(
      'refuses the host %j and changes nothing',
      async (host) => {
        await h.provider.activate({ slug: 'safe', releaseId: first, hosts: ['safe.apps.example.test'] });
        await expect(h.provider.activate({ slug: 'safe', releaseId: second, hosts: ['safe.apps.example.test', host] })).rejects.toThrow();
        // Checked before any host changed.
        expect(await h.served('safe.apps.example.test')).toBe(first);
        await expect(h.provider.deactivate([host])).rejects.toThrow();
      },
    );

    it('stops serving deactivated hosts only; an unknown host is no error', async () => {
      await h.provider.activate({ slug: 'two', releaseId: first, hosts: ['two.apps.example.test', 'two.example.test'] });
      await h.provider.deactivate(['two.example.test', 'never-served.example.test']);
      expect(await h.served('two.example.test')).toBeNull();
      expect(await h.served('two.apps.example.test')).toBe(first);
    });

    it("discards a project's releases: its hosts stop, another project's stay", async () => {
      const sandbox = await h.sandbox('builds');
      const doomed = id('project');
      const releaseId = id('release');
      const build = await h.provider.buildRelease({ sandboxId: sandbox, projectId: doomed, releaseId });
      expect(build.kind).toBe('built');
      await h.provider.activate({ slug: 'doomed', releaseId, hosts: ['doomed.apps.example.test'] });
      await h.provider.activate({ slug: 'other', releaseId: first, hosts: ['other.apps.example.test'] });
      await h.provider.discardReleases(doomed);
      expect(await h.served('doomed.apps.example.test')).toBeNull();
      await expect(h.provider.activate({ slug: 'doomed', releaseId, hosts: ['doomed.apps.example.test'] })).rejects.toThrow();
      expect(await h.served('other.apps.example.test')).toBe(first);
      await h.provider.activate({ slug: 'other', releaseId: second, hosts: ['other.apps.example.test'] });
      expect(await h.served('other.apps.example.test')).toBe(second);
    }, 120_000);
  });
}

import { AddCustomDomain } from '../hosting/use-cases/add-custom-domain.use-case.js';
import { CheckProjectPublish } from '../hosting/use-cases/check-project-publish.use-case.js';
import { GetPublishStatus } from '../hosting/use-cases/get-publish-status.use-case.js';
import { ListPublishedSites } from '../hosting/use-cases/list-published-sites.use-case.js';
import { GetPublicSite, GetPublicSiteScreenshot, IsTlsAllowed } from '../hosting/use-cases/public-sites.use-cases.js';
import { PublishProject } from '../hosting/use-cases/publish-project.use-case.js';
import { RemoveCustomDomain } from '../hosting/use-cases/remove-custom-domain.use-case.js';
import { RestartSite } from '../hosting/use-cases/restart-site.use-case.js';
import { RollbackRelease } from '../hosting/use-cases/rollback-release.use-case.js';
import { TakeSiteScreenshot } from '../hosting/use-cases/take-site-screenshot.use-case.js';
import { UnpublishProject } from '../hosting/use-cases/unpublish-project.use-case.js';
import { VerifyCustomDomain } from '../hosting/use-cases/verify-custom-domain.use-case.js';
import { DeleteProject } from '../projects/delete-project.use-case.js';
import { OwnedProjects } from '../projects/owned-projects.js';
import { InProcessTurnLock } from '../ai/engine/project-turn-lock.js';
import { TakeDownSite } from '../hosting/use-cases/take-down-site.js';
import { InMemoryCertificateAuthority, InMemoryDnsResolver, InMemoryHostingProvider, InMemorySiteScreenshotter } from './in-memory-hosting.js';
import { InMemoryHostingRepository, TestPublishedUrls } from './in-memory-hosting-repository.js';
import { InMemorySandboxHost } from './in-memory-sandbox-host.js';
import { DatabaseRlsSafety } from '../databases/use-cases/database-rls-safety.js';
import { InMemoryDatabaseProvisioner, InMemoryProjectDatabaseRepository } from './in-memory-databases.js';
import { SequentialIds } from './sequential-ids.js';
import { type TestKit, type TestKitOptions, createTestKit } from './test-kit.js';
import { ok } from '../shared/result.js';

/** The test kit plus every hosting use case over the in-memory hosting adapters and sandbox host. */
export function createHostingKit(options: TestKitOptions & { kit?: TestKit } = {}) {
  const kit = options.kit ?? createTestKit(options);
  const owned = new OwnedProjects(kit.projects, kit.clock);
  const hosting = new InMemoryHostingRepository();
  const provider = new InMemoryHostingProvider();
  const dns = new InMemoryDnsResolver();
  const certificates = new InMemoryCertificateAuthority();
  const screenshotter = new InMemorySiteScreenshotter();
  const sandboxes = new InMemorySandboxHost(kit.clock);
  const urls = new TestPublishedUrls();
  const ids = new SequentialIds('hosting');
  const lock = new InProcessTurnLock();
  // The project databases the publish gate looks at (none unless a test adds one).
  const databases = new InMemoryProjectDatabaseRepository();
  const databaseProvisioner = new InMemoryDatabaseProvisioner();
  return {
    ...kit,
    kit,
    owned,
    hosting,
    provider,
    dns,
    certificates,
    screenshotter,
    sandboxes,
    urls,
    lock,
    databases,
    databaseProvisioner,
    checkProjectPublish: new CheckProjectPublish(owned, kit.checkPublishAllowed),
    publish: new PublishProject(owned, kit.projects, kit.checkPublishAllowed, hosting, provider, sandboxes, urls, ids, kit.clock, lock, new DatabaseRlsSafety(databases, databaseProvisioner)),
    unpublish: new UnpublishProject(owned, kit.projects, hosting, provider, urls, kit.clock, lock),
    rollback: new RollbackRelease(owned, hosting, provider, urls, kit.clock, lock),
    restart: new RestartSite(owned, hosting, provider, urls),
    addDomain: new AddCustomDomain(owned, kit.checkPublishAllowed, hosting, urls, kit.random, ids, kit.clock),
    verifyDomain: new VerifyCustomDomain(owned, hosting, dns, certificates, provider, urls, kit.clock),
    removeDomain: new RemoveCustomDomain(owned, hosting, provider),
    status: new GetPublishStatus(owned, hosting, urls),
    sites: new ListPublishedSites(kit.projects, hosting, urls),
    screenshot: new TakeSiteScreenshot(owned, hosting, screenshotter, urls, kit.clock),
    tlsAllowed: new IsTlsAllowed(hosting, kit.projects, urls),
    publicSite: new GetPublicSite(hosting, kit.projects, urls),
    publicScreenshot: new GetPublicSiteScreenshot(hosting, kit.projects),
    deleteProject: new DeleteProject(owned, kit.projects, kit.clock, new TakeDownSite(hosting, provider, urls, kit.clock), { dropFor: async () => ok(undefined) }),
  };
}

export type HostingKit = ReturnType<typeof createHostingKit>;

import type { ProjectTakedown } from '../../projects/project-takedown.port.js';
import type { Clock } from '../../shared/clock.port.js';
import type { HostingProvider } from '../hosting-provider.port.js';
import type { HostingRepository } from '../hosting-repository.port.js';
import type { PublishedUrls } from '../published-urls.js';

/**
 * A project being deleted stops being served: every host of its site (Kiln's and custom) is
 * deactivated, the site is marked unpublished, and its release folders are discarded. The rows
 * stay with the deleted project (nothing can publish or roll it back again).
 */
export class TakeDownSite implements ProjectTakedown {
  constructor(
    private readonly hosting: HostingRepository,
    private readonly provider: HostingProvider,
    private readonly urls: PublishedUrls,
    private readonly clock: Clock,
  ) {}

  async takeDown(projectId: string): Promise<void> {
    const site = await this.hosting.findSite(projectId);
    const domains = await this.hosting.listDomains(projectId);
    const hosts = [...(site ? [this.urls.hostFor(site.slug)] : []), ...domains.map((d) => d.host)];
    if (hosts.length > 0) await this.provider.deactivate(hosts);
    if (site && site.status === 'live') await this.hosting.saveSite({ ...site, status: 'unpublished', updatedAt: this.clock.now() });
    await this.provider.discardReleases(projectId);
  }
}

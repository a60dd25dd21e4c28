import type { OwnedProjects } from '../../projects/owned-projects.js';
import type { ProjectNotFound } from '../../projects/project.errors.js';
import { type Result, err, ok } from '../../shared/result.js';
import type { HostingProvider } from '../hosting-provider.port.js';
import type { HostingRepository } from '../hosting-repository.port.js';
import type { NotPublished } from '../hosting.errors.js';
import type { PublishedSite } from '../published-site.entity.js';
import type { PublishedUrls } from '../published-urls.js';
import { serveRelease } from './site-hosts.js';
import { notPublished } from './unpublish-project.use-case.js';

/** `restart-app` without a new build: the live site's current release is served again on all its hosts (re-applies its routes). */
export class RestartSite {
  constructor(
    private readonly owned: OwnedProjects,
    private readonly hosting: HostingRepository,
    private readonly provider: HostingProvider,
    private readonly urls: PublishedUrls,
  ) {}

  async execute(input: { userId: string; projectId: string }): Promise<Result<PublishedSite, ProjectNotFound | NotPublished>> {
    const found = await this.owned.find(input.userId, input.projectId);
    if (!found.ok) return found;
    const site = await this.hosting.findSite(input.projectId);
    if (!site || site.status !== 'live' || site.currentReleaseId === null) return err(notPublished());
    await serveRelease({ hosting: this.hosting, provider: this.provider, urls: this.urls }, site, site.currentReleaseId);
    return ok(site);
  }
}

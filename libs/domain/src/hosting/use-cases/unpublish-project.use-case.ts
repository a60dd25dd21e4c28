import type { ProjectTurnLock } from '../../ai/engine/project-turn-lock.js';
import type { OwnedProjects } from '../../projects/owned-projects.js';
import { type ProjectBusy, type ProjectNotFound, projectBusy } from '../../projects/project.errors.js';
import type { ProjectRepository } from '../../projects/project-repository.port.js';
import type { Clock } from '../../shared/clock.port.js';
import { type Result, err, ok } from '../../shared/result.js';
import type { HostingProvider } from '../hosting-provider.port.js';
import type { HostingRepository } from '../hosting-repository.port.js';
import type { NotPublished } from '../hosting.errors.js';
import type { PublishedSite } from '../published-site.entity.js';
import type { PublishedUrls } from '../published-urls.js';

export const notPublished = (): NotPublished => ({ code: 'HOSTING.NOT_PUBLISHED', message: 'This project is not published.' });

/**
 * Takes a live site offline: its hosts (Kiln's and custom) stop answering, the project's domain
 * is cleared (it no longer counts against the plan), and its releases and slug are kept for a
 * later publish or rollback.
 */
export class UnpublishProject {
  constructor(
    private readonly owned: OwnedProjects,
    private readonly projects: ProjectRepository,
    private readonly hosting: HostingRepository,
    private readonly provider: HostingProvider,
    private readonly urls: PublishedUrls,
    private readonly clock: Clock,
    /** The project's lock, as publishing takes it: never interleaved with a publish of the same project. */
    private readonly lock: Pick<ProjectTurnLock, 'tryRun'>,
  ) {}

  async execute(input: { userId: string; projectId: string }): Promise<Result<PublishedSite, ProjectNotFound | NotPublished | ProjectBusy>> {
    const found = await this.owned.find(input.userId, input.projectId);
    if (!found.ok) return found;
    const attempt = await this.lock.tryRun(input.projectId, () => this.unpublishLocked(input.projectId));
    return attempt.ran ? attempt.value : err(projectBusy());
  }

  private async unpublishLocked(projectId: string): Promise<Result<PublishedSite, NotPublished>> {
    const site = await this.hosting.findSite(projectId);
    if (!site || site.status !== 'live') return err(notPublished());
    const domains = await this.hosting.listDomains(site.projectId);
    await this.provider.deactivate([this.urls.hostFor(site.slug), ...domains.map((d) => d.host)]);
    const now = this.clock.now();
    const unpublished: PublishedSite = { ...site, status: 'unpublished', updatedAt: now };
    await this.hosting.saveSite(unpublished);
    // Read again just before the write, so a rename meanwhile is kept.
    const latest = await this.projects.findById(projectId);
    if (latest && latest.domain !== null) await this.projects.update({ ...latest, domain: null, updatedAt: now });
    return ok(unpublished);
  }
}

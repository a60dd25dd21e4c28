import type { ProjectTurnLock } from '../../ai/engine/project-turn-lock.js';
import type { OwnedProjects } from '../../projects/owned-projects.js';
import { type ProjectBusy, type ProjectNotFound, projectBusy } from '../../projects/project.errors.js';
import type { Clock } from '../../shared/clock.port.js';
import { type Result, err, ok } from '../../shared/result.js';
import type { HostingProvider } from '../hosting-provider.port.js';
import type { HostingRepository } from '../hosting-repository.port.js';
import type { NotPublished, ReleaseNotFound } from '../hosting.errors.js';
import type { PublishedSite } from '../published-site.entity.js';
import type { PublishedUrls } from '../published-urls.js';
import { serveRelease } from './site-hosts.js';
import { notPublished } from './unpublish-project.use-case.js';

export const releaseNotFound = (id: string): ReleaseNotFound => ({ code: 'HOSTING.RELEASE_NOT_FOUND', message: `No release ${id} for this project.` });

/** Serves an earlier release of a live site again: no build, a pointer switch (instant). */
export class RollbackRelease {
  constructor(
    private readonly owned: OwnedProjects,
    private readonly hosting: HostingRepository,
    private readonly provider: HostingProvider,
    private readonly urls: PublishedUrls,
    private readonly clock: Clock,
    /** The project's lock, as publishing takes it: a rollback never lands in the middle of a publish. */
    private readonly lock: Pick<ProjectTurnLock, 'tryRun'>,
  ) {}

  async execute(input: { userId: string; projectId: string; releaseId: string }): Promise<Result<PublishedSite, ProjectNotFound | NotPublished | ReleaseNotFound | ProjectBusy>> {
    const found = await this.owned.find(input.userId, input.projectId);
    if (!found.ok) return found;
    const attempt = await this.lock.tryRun(input.projectId, () => this.rollbackLocked(input));
    return attempt.ran ? attempt.value : err(projectBusy());
  }

  private async rollbackLocked(input: { projectId: string; releaseId: string }): Promise<Result<PublishedSite, NotPublished | ReleaseNotFound>> {
    const release = await this.hosting.findRelease(input.projectId, input.releaseId);
    if (!release) return err(releaseNotFound(input.releaseId));
    const site = await this.hosting.findSite(input.projectId);
    // Rolling back an unpublished site would publish it outside the plan check: publish first.
    if (!site || site.status !== 'live') return err(notPublished());
    await serveRelease({ hosting: this.hosting, provider: this.provider, urls: this.urls }, site, release.id);
    const now = this.clock.now();
    const rolledBack: PublishedSite = { ...site, currentReleaseId: release.id, publishedAt: now, updatedAt: now };
    await this.hosting.saveSite(rolledBack);
    return ok(rolledBack);
  }
}

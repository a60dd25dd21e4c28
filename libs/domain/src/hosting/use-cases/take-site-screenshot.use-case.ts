import type { OwnedProjects } from '../../projects/owned-projects.js';
import type { ProjectNotFound } from '../../projects/project.errors.js';
import type { Clock } from '../../shared/clock.port.js';
import type { DomainError } from '../../shared/domain-error.js';
import { type Result, err, ok } from '../../shared/result.js';
import type { HostingRepository } from '../hosting-repository.port.js';
import type { NotPublished } from '../hosting.errors.js';
import type { PublishedUrls } from '../published-urls.js';
import type { SiteScreenshotter } from '../site-screenshotter.port.js';
import { notPublished } from './unpublish-project.use-case.js';

/** The browser could not load the published page (503: try again). */
export type ScreenshotFailed = DomainError<'HOSTING.SCREENSHOT_FAILED'>;

/** Takes a picture of the live site at its Kiln URL, as a logged-out visitor sees it, and keeps it for the project card and the public page. */
export class TakeSiteScreenshot {
  constructor(
    private readonly owned: OwnedProjects,
    private readonly hosting: HostingRepository,
    private readonly screenshotter: SiteScreenshotter,
    private readonly urls: PublishedUrls,
    private readonly clock: Clock,
  ) {}

  async execute(input: { userId: string; projectId: string }): Promise<Result<{ takenAt: Date; slug: string }, ProjectNotFound | NotPublished | ScreenshotFailed>> {
    const found = await this.owned.find(input.userId, input.projectId);
    if (!found.ok) return found;
    const site = await this.hosting.findSite(input.projectId);
    if (!site || site.status !== 'live') return err(notPublished());
    let png: Uint8Array;
    try {
      png = await this.screenshotter.capture(this.urls.urlFor(this.urls.hostFor(site.slug)));
    } catch {
      return err({ code: 'HOSTING.SCREENSHOT_FAILED', message: 'The published page could not be loaded for a screenshot. Please try again.' });
    }
    const takenAt = this.clock.now();
    await this.hosting.saveScreenshot(input.projectId, png, takenAt);
    return ok({ takenAt, slug: site.slug });
  }
}

import type { ProjectRepository } from '../../projects/project-repository.port.js';
import type { HostingRepository } from '../hosting-repository.port.js';
import type { PublishedUrls } from '../published-urls.js';
import type { PublishStatus } from './get-publish-status.use-case.js';

/** One project's site as its home card shows it. */
export interface SiteSummary {
  readonly projectId: string;
  readonly status: PublishStatus['status'];
  readonly slug: string;
  /** The Kiln URL while live. */
  readonly url: string | null;
  /** When the stored screenshot was taken, while live (the public picture answers only then); else null. */
  readonly screenshotTakenAt: Date | null;
}

/**
 * The sites of all the caller's projects (not deleted) in one go, for the home page's cards: the
 * projects list cannot carry them (projects cannot depend on hosting). Projects that never had a
 * site are left out.
 */
export class ListPublishedSites {
  constructor(
    private readonly projects: ProjectRepository,
    private readonly hosting: HostingRepository,
    private readonly urls: PublishedUrls,
  ) {}

  async execute(creatorId: string): Promise<readonly SiteSummary[]> {
    const projects = (await this.projects.listByCreator(creatorId)).filter((p) => p.status !== 'deleted');
    if (projects.length === 0) return [];
    const sites = new Map((await this.hosting.listSites(projects.map((p) => p.id))).map((s) => [s.site.projectId, s]));
    return projects.flatMap((project) => {
      const found = sites.get(project.id);
      if (found === undefined) return [];
      const { site, screenshotTakenAt } = found;
      const live = site.status === 'live' && site.currentReleaseId !== null;
      return [
        {
          projectId: project.id,
          // As GetPublishStatus says it: a site that never served a release was never published.
          status: site.currentReleaseId === null ? 'never_published' : site.status,
          slug: site.slug,
          url: live ? this.urls.urlFor(this.urls.hostFor(site.slug)) : null,
          screenshotTakenAt: live ? screenshotTakenAt : null,
        },
      ];
    });
  }
}

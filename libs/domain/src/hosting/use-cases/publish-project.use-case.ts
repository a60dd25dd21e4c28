import type { ProjectTurnLock } from '../../ai/engine/project-turn-lock.js';
import type { IdGenerator } from '../../shared/ids.port.js';
import type { OwnedProjects } from '../../projects/owned-projects.js';
import { type Project, isPublished } from '../../projects/project.entity.js';
import { type ProjectBusy, type ProjectNotFound, projectBusy } from '../../projects/project.errors.js';
import type { ProjectRepository } from '../../projects/project-repository.port.js';
import type { SandboxVersions } from '../../sandbox/sandbox-versions.port.js';
import { isSandboxMissing } from '../../sandbox/sandbox-missing.js';
import type { Clock } from '../../shared/clock.port.js';
import { type Result, err, ok } from '../../shared/result.js';
import type { CheckPublishAllowed } from '../check-publish-allowed.use-case.js';
import type { HostingProvider, ReleaseBuild } from '../hosting-provider.port.js';
import type { HostingRepository } from '../hosting-repository.port.js';
import type { DatabaseSafety } from '../database-safety.port.js';
import {
  type BuildFailed,
  type DatabaseCheckUnavailable,
  type DatabaseUnsafe,
  type InvalidSlug,
  type NothingToPublish,
  type SlugTaken,
  databaseCheckUnavailable,
  databaseUnsafe,
} from '../hosting.errors.js';
import type { PublishedSite } from '../published-site.entity.js';
import type { PublishedUrls } from '../published-urls.js';
import { type PublishError, publishLimitReached } from '../publishing.errors.js';
import type { Release } from '../release.entity.js';
import { defaultSiteSlug, parseSiteSlug } from '../site-slug.js';
import { rejectedWith, serveRelease } from './site-hosts.js';

export interface PublishProjectInput {
  readonly userId: string;
  readonly projectId: string;
  /** A slug of the person's choosing; default: the site's slug, or one made from the project's. */
  readonly slug?: string;
}

export type PublishProjectError =
  | ProjectNotFound
  | ProjectBusy
  | PublishError
  | InvalidSlug
  | SlugTaken
  | BuildFailed
  | NothingToPublish
  | DatabaseUnsafe
  | DatabaseCheckUnavailable;

/** The commit a release records when the sandbox has no saved version yet. */
export const WORKING_TREE = 'working-tree';
/** The end of a failed build's log that the person is shown (the errors are at its end). */
const MAX_LOG_CHARS = 64 * 1024;
/** Attempts at a release number when concurrent publishes of one project take the same one. */
const NUMBER_ATTEMPTS = 5;

export const slugTaken = (slug: string): SlugTaken => ({ code: 'HOSTING.SLUG_TAKEN', message: `The site name "${slug}" is already taken. Choose another.` });
const nothingToPublish = (): NothingToPublish => ({
  code: 'HOSTING.NOTHING_TO_PUBLISH',
  message: 'This project has no files to publish yet. Open it in the builder first.',
});

/**
 * Builds the project's current files into a new release and serves it on the site's hosts,
 * within the plan's published-project limit (SPEC §5). Publishing is free: no credit is charged.
 * A failed build publishes nothing and changes nothing; the person gets the build's log.
 * While the site is live the project's `domain` is its Kiln host, so "active projects with a
 * domain" (SPEC §5) counts published sites; the write is atomic against the limit.
 */
export class PublishProject {
  constructor(
    private readonly owned: OwnedProjects,
    private readonly projects: ProjectRepository,
    private readonly checkPublishAllowed: CheckPublishAllowed,
    private readonly hosting: HostingRepository,
    private readonly provider: HostingProvider,
    private readonly versions: SandboxVersions,
    private readonly urls: PublishedUrls,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    /** The AI turns' lock (as ApplyProjectTheme takes it). */
    private readonly lock: Pick<ProjectTurnLock, 'tryRun'>,
    /** The project's database, when it has one: a table with RLS off refuses the publish. */
    private readonly databaseSafety?: DatabaseSafety,
  ) {}

  async execute(input: PublishProjectInput): Promise<Result<{ site: PublishedSite; release: Release }, PublishProjectError>> {
    const found = await this.owned.find(input.userId, input.projectId);
    if (!found.ok) return found;
    const project = found.value;
    const allowed = await this.checkPublishAllowed.execute({ userId: input.userId, projectId: project.id });
    if (!allowed.ok) return allowed;

    if (input.slug !== undefined) {
      const chosen = parseSiteSlug(input.slug);
      if (!chosen.ok) return chosen;
    }
    // Under the project's turn lock, without waiting: never a build of files an AI turn is
    // halfway through changing, never two publishes of one project interleaved.
    const attempt = await this.lock.tryRun(project.id, () => this.publishLocked(project, input.slug, allowed.value.limit));
    return attempt.ran ? attempt.value : err(projectBusy());
  }

  private async publishLocked(
    project: Project,
    wanted: string | undefined,
    limit: number | 'unlimited',
  ): Promise<Result<{ site: PublishedSite; release: Release }, PublishProjectError>> {
    const previous = await this.hosting.findSite(project.id);
    const slug = wanted === undefined ? ok(previous?.slug ?? defaultSiteSlug(project.slug)) : parseSiteSlug(wanted);
    if (!slug.ok) return slug;
    const chosen = slug.value;
    const holder = await this.hosting.findSiteBySlug(chosen);
    if (holder && holder.projectId !== project.id) return err(slugTaken(chosen));
    const safe = await this.checkDatabase(project.id);
    if (!safe.ok) return safe;

    const releaseId = this.ids.next();
    const built = await this.build(project.id, releaseId);
    if (!built.ok) return built;
    const { build, commit } = built.value;

    // The slot is claimed atomically before anything is served.
    const host = this.urls.hostFor(chosen);
    const claimed = await this.claim(project, host, limit);
    if (!claimed.ok) return claimed;
    try {
      const release = await this.addRelease({ id: releaseId, projectId: project.id, commit, sizeBytes: build.sizeBytes, fileCount: build.fileCount });
      const now = this.clock.now();
      const site: PublishedSite = { projectId: project.id, slug: chosen, currentReleaseId: release.id, status: 'live', publishedAt: now, updatedAt: now };
      await serveRelease({ hosting: this.hosting, provider: this.provider, urls: this.urls }, site, release.id);
      try {
        await this.hosting.saveSite(site);
      } catch (error) {
        if (!rejectedWith(error, 'HOSTING.SLUG_TAKEN')) throw error;
        await this.provider.deactivate([host]);
        await this.restore(project);
        return err(slugTaken(chosen));
      }
      // A renamed site stops answering on its old Kiln host.
      if (previous && previous.slug !== chosen) await this.provider.deactivate([this.urls.hostFor(previous.slug)]);
      return ok({ site, release });
    } catch (error) {
      await this.restore(project);
      throw error;
    }
  }

  private async build(projectId: string, releaseId: string): Promise<Result<{ build: Extract<ReleaseBuild, { kind: 'built' }>; commit: string }, BuildFailed | NothingToPublish>> {
    try {
      const history = await this.versions.versionHistory(projectId);
      const commit = history[0]?.hash ?? WORKING_TREE;
      const build = await this.provider.buildRelease({ sandboxId: projectId, projectId, releaseId });
      if (build.kind === 'failed') {
        const log = build.log.length > MAX_LOG_CHARS ? `…${build.log.slice(-MAX_LOG_CHARS)}` : build.log;
        return err({ code: 'HOSTING.BUILD_FAILED', message: 'The app did not build, so nothing was published. See the build log.', log });
      }
      return ok({ build, commit });
    } catch (error) {
      if (isSandboxMissing(error)) return err(nothingToPublish());
      throw error;
    }
  }

  /** CVE-2025-48757: never publish an app whose database lets anyone read a table. */
  private async checkDatabase(projectId: string): Promise<Result<void, DatabaseUnsafe | DatabaseCheckUnavailable>> {
    if (!this.databaseSafety) return ok(undefined);
    const found = await this.databaseSafety.check(projectId);
    if (found.kind === 'unavailable') return err(databaseCheckUnavailable(found.reason));
    return found.tablesWithoutRls.length === 0 ? ok(undefined) : err(databaseUnsafe(found.tablesWithoutRls));
  }

  /** Sets the project's domain to the site's Kiln host; an unpublished project only within the limit. */
  private async claim(project: Project, host: string, limit: number | 'unlimited'): Promise<Result<void, PublishError>> {
    if (project.domain === host && isPublished(project)) return ok(undefined);
    const latest = (await this.projects.findById(project.id)) ?? project;
    const updated: Project = { ...latest, domain: host, updatedAt: this.clock.now() };
    if (isPublished(latest)) {
      // Already counted: moving its host adds nothing (also after a downgrade below the count).
      await this.projects.update(updated);
      return ok(undefined);
    }
    const max = limit === 'unlimited' ? null : limit;
    if (!(await this.projects.updateWithinPublishLimit(updated, max))) return err(publishLimitReached(max ?? 0));
    return ok(undefined);
  }

  /** Puts the project's domain back as it was before this publish (a failed step after the claim). */
  private async restore(project: Project): Promise<void> {
    const latest = await this.projects.findById(project.id);
    if (latest && latest.domain !== project.domain) await this.projects.update({ ...latest, domain: project.domain, updatedAt: this.clock.now() });
  }

  /** Adds the release with the project's next number; a number taken meanwhile by a concurrent publish is taken again. */
  private async addRelease(fields: Omit<Release, 'number' | 'createdAt'>): Promise<Release> {
    for (let attempt = 1; ; attempt += 1) {
      const latest = (await this.hosting.listReleases(fields.projectId))[0];
      const release: Release = { ...fields, number: (latest?.number ?? 0) + 1, createdAt: this.clock.now() };
      try {
        await this.hosting.addRelease(release);
        return release;
      } catch (error) {
        const now = (await this.hosting.listReleases(fields.projectId))[0];
        if (attempt >= NUMBER_ATTEMPTS || now === undefined || now.number < release.number) throw error;
      }
    }
  }
}

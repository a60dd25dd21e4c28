/**
 * A project's published site: the slug it lives at (`{slug}` in PUBLISHED_URL_TEMPLATE), the
 * release it serves and whether it is served at all. Unpublishing keeps the site's releases for a
 * later rollback; its slug stays reserved for the project.
 */
export type SiteStatus = 'live' | 'unpublished';

export interface PublishedSite {
  readonly projectId: string;
  readonly slug: string;
  /** The release served while live; null before the first publish. */
  readonly currentReleaseId: string | null;
  readonly status: SiteStatus;
  /** When the site was last published (or rolled back). */
  readonly publishedAt: Date | null;
  readonly updatedAt: Date;
}

/** What a release build gives: a stored, immutable release folder, or the build's log. */
export type ReleaseBuild =
  | { readonly kind: 'built'; readonly sizeBytes: number; readonly fileCount: number; readonly log: string }
  | { readonly kind: 'failed'; readonly log: string };

/** One host name a site answers on, and the release it serves. */
export interface SiteRoute {
  readonly slug: string;
  readonly releaseId: string;
  /** Every host the site answers on: its Kiln subdomain and its active custom domains. */
  readonly hosts: readonly string[];
}

/**
 * Builds and serves published sites. The build runs inside the project's sandbox, under its
 * limits (`vite build`); its output is copied into an immutable release folder that the project's
 * code can no longer touch. Serving switches a pointer atomically, so a request sees the old
 * release or the new one, never half of either.
 */
export interface HostingProvider {
  /** Builds the sandbox's current files into release `releaseId` of the project. Never serves it. */
  buildRelease(input: { readonly sandboxId: string; readonly projectId: string; readonly releaseId: string }): Promise<ReleaseBuild>;
  /** Serves the release on each of the route's hosts, replacing what they served (publish, rollback, a domain becoming active). */
  activate(route: SiteRoute): Promise<void>;
  /** Stops serving these hosts (unpublish, a removed domain); the releases stay. */
  deactivate(hosts: readonly string[]): Promise<void>;
  /** Deletes a project's releases (a deleted project). */
  discardReleases(projectId: string): Promise<void>;
}

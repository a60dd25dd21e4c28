import type { CustomDomain } from '../custom-domain.entity.js';
import type { HostingProvider } from '../hosting-provider.port.js';
import type { HostingRepository } from '../hosting-repository.port.js';
import type { PublishedSite } from '../published-site.entity.js';
import type { PublishedUrls } from '../published-urls.js';

/** Every host a live site answers on: its Kiln subdomain, then its active custom domains. */
export function servedHosts(slug: string, domains: readonly CustomDomain[], urls: PublishedUrls): string[] {
  return [urls.hostFor(slug), ...domains.filter((d) => d.status === 'active').map((d) => d.host)];
}

/** Points every host of the site at `releaseId` (publish, rollback, restart, a domain turning active). */
export async function serveRelease(
  deps: { hosting: HostingRepository; provider: HostingProvider; urls: PublishedUrls },
  site: Pick<PublishedSite, 'projectId' | 'slug'>,
  releaseId: string,
): Promise<void> {
  const domains = await deps.hosting.listDomains(site.projectId);
  await deps.provider.activate({ slug: site.slug, releaseId, hosts: servedHosts(site.slug, domains, deps.urls) });
}

/** Whether an adapter's rejection carries this domain error code (the repositories' unique guarantees). */
export const rejectedWith = (error: unknown, code: string): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;

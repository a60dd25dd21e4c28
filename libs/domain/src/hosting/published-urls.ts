/**
 * Where published sites live (PUBLISHED_URL_TEMPLATE, e.g. `http://{slug}.apps.localhost:3000`
 * or `https://{slug}.kiln.app`): the API builds one from its configuration and hands it to the
 * use cases, which never parse the template themselves.
 */
export interface PublishedUrls {
  /** The Kiln subdomain host of a slug, lower-case, without a port (`pantry.apps.localhost`). */
  hostFor(slug: string): string;
  /** The URL people open for a host (the Kiln subdomain or a custom domain), with the scheme and the port the edge serves it on. */
  urlFor(host: string): string;
  /** The slug whose Kiln subdomain this host is, or null for any other host. */
  slugOf(host: string): string | null;
  /** Hosts that are Kiln's own (its app, API, previews, the published-site parent domain): never a custom domain. */
  isKilnHost(host: string): boolean;
  /** What a custom domain's CNAME must point at (a subdomain), and the addresses an apex's A/AAAA must hold. */
  readonly target: { readonly cname: string; readonly addresses: readonly string[] };
}

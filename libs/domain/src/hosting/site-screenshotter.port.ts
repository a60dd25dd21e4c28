/** Takes a picture of a published site as people see it (a headless browser, logged out). */
export interface SiteScreenshotter {
  /** A PNG of the page at `url`; rejects when the page cannot be loaded. */
  capture(url: string): Promise<Uint8Array>;
}

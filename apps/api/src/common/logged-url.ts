/** A URL as the request log writes it: capability tokens in the query (local checkout links) are never written out. */
export function loggedUrl(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]');
}

import type { Server } from 'node:http';

/**
 * What Node accepts of a request's line and headers together. Its default, 16 KiB, equals the
 * data API's own URL limit (DATA_API_LIMITS.maxUrlLength), so a request the data API accepts —
 * supabase-js's `.in()` with a few hundred ids, plus its apikey and bearer JWT — was refused by
 * Node first with a bare 431 that supabase-js cannot read. With 64 KiB the data API answers up
 * to its limit, and past it in PostgREST's shape (414).
 */
export const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Raises the limit on a server made without options (Nest's ExpressAdapter creates it): Node reads
 * `server.maxHeaderSize` for each new connection. Call it before the server listens.
 */
export function acceptLargeHeaders(server: Server): void {
  (server as Server & { maxHeaderSize: number }).maxHeaderSize = MAX_HEADER_BYTES;
}

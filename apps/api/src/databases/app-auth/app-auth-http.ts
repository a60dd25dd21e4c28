import type { IncomingMessage, ServerResponse } from 'node:http';
import { isDatabaseUnavailable } from '@kiln/adapters';
import { API_VERSION_HEADER, negotiateApiVersion } from '../../auth/api-version.js';
import { GOTRUE_ALLOWED_HEADERS, GOTRUE_ALLOWED_METHODS, GOTRUE_EXPOSED_HEADERS } from '../../auth/gotrue-cors.middleware.js';
import { GoTrueHttpError, badJson, databaseUnavailable, unexpectedFailure } from '../../auth/gotrue-errors.js';

// The plain-Node side of app sign-in: CORS, body reading, GoTrue's reply shapes. The Nest
// /auth/v1 has Express for these; the data origin is served before Express.

/** Bodies of GoTrue requests are small JSON objects. */
export const APP_AUTH_MAX_BODY_BYTES = 64 * 1024;

export const requestTooLarge = () => new GoTrueHttpError(413, 'request_too_large', 'Request body is too large');

/**
 * CORS for any origin (generated apps run on preview, published and custom origins) without
 * credentials (auth-js sends tokens in headers), and the API version echo. True when the
 * request was a preflight and has been answered.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse): boolean {
  const version = negotiateApiVersion(req.headers[API_VERSION_HEADER.toLowerCase()]);
  if (version) res.setHeader(API_VERSION_HEADER, version);
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', GOTRUE_EXPOSED_HEADERS.join(', '));
  if (req.method !== 'OPTIONS') return false;
  res.setHeader('Access-Control-Allow-Methods', GOTRUE_ALLOWED_METHODS.join(', '));
  res.setHeader('Access-Control-Allow-Headers', GOTRUE_ALLOWED_HEADERS.join(', '));
  res.setHeader('Access-Control-Max-Age', '600');
  res.statusCode = 204;
  res.end();
  return true;
}

/** The JSON body, at most `limit` bytes (413 beyond, without reading the rest); undefined when empty. */
export async function readJsonBody(req: IncomingMessage, limit = APP_AUTH_MAX_BODY_BYTES): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw requestTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw requestTooLarge();
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw badJson(error instanceof Error ? error.message : 'invalid JSON');
  }
}

export function writeJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.setHeader('Cache-Control', 'no-store');
  res.end(text);
}

/** Any error as GoTrue answers it (the same shapes as writeGoTrueError on the Nest side). */
export function writeError(req: IncomingMessage, res: ServerResponse, error: unknown, log: (message: string) => void): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const failure = toHttpError(error, log);
  const version = negotiateApiVersion(req.headers[API_VERSION_HEADER.toLowerCase()]);
  res.setHeader('x-sb-error-code', failure.errorCode);
  if (failure.extra.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(failure.extra.retryAfterSeconds));
  const body: Record<string, unknown> = version
    ? { code: failure.errorCode, message: failure.message }
    : { code: failure.status, error_code: failure.errorCode, msg: failure.message };
  if (failure.extra.weakPasswordReasons) body['weak_password'] = { reasons: failure.extra.weakPasswordReasons };
  if (failure.status === 413) res.setHeader('Connection', 'close');
  writeJson(res, failure.status, body);
}

function toHttpError(error: unknown, log: (message: string) => void): GoTrueHttpError {
  if (error instanceof GoTrueHttpError) return error;
  const e = error instanceof Error ? error : new Error(String(error));
  // A project database's server (Neon's API or its database) that cannot be reached is an outage too.
  if (isDatabaseUnavailable(error) || e.name === 'DatabaseServerDown') {
    log(`Database unavailable: ${e.message}`);
    return databaseUnavailable();
  }
  log(`${e.name}: ${e.stack ?? e.message}`);
  return unexpectedFailure();
}

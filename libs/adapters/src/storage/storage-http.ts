import { type StorageFailure, invalidRequest, payloadTooLarge, storageFailure } from '@kiln/domain';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RETRY_AFTER_SECONDS } from '../databases/pg-rest-errors.js';

export const STORAGE_ALLOWED_HEADERS =
  'apikey, authorization, x-client-info, content-type, cache-control, x-upsert, x-metadata, x-supabase-api-version, accept, range, if-none-match';
const EXPOSED = 'Content-Length, Content-Type, Content-Range, ETag, Last-Modified, Cache-Control, Retry-After';
/** The most a JSON body of storage may be (a list of 1,000 paths to sign or delete fits). */
export const STORAGE_JSON_MAX_BYTES = 2 * 1024 * 1024;
/** What a multipart form adds around its file (boundaries, cacheControl, metadata). */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export function corsHeaders(res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', EXPOSED);
  res.setHeader('Vary', 'Origin');
}

export function preflight(res: ServerResponse): void {
  res.writeHead(204, {
    'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, DELETE, OPTIONS',
    'Access-Control-Allow-Headers': STORAGE_ALLOWED_HEADERS,
    'Access-Control-Max-Age': '600',
  });
  res.end();
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** storage-js's error shape: `{ statusCode, error, message }` (statusCode a string, as Supabase's). */
export function sendFailure(res: ServerResponse, failure: StorageFailure, method = 'GET'): void {
  if (failure.status === 503) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  if (failure.status === 413) res.setHeader('Connection', 'close');
  if (method === 'HEAD') {
    res.writeHead(failure.status);
    res.end();
    return;
  }
  sendJson(res, failure.status, { statusCode: String(failure.status), error: failure.error, message: failure.message });
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The body, read up to `cap` bytes: past it the read stops at once (413, nothing more buffered;
 * the connection closes after the answer). A declared Content-Length past the cap is refused
 * before reading.
 */
export async function readCapped(req: IncomingMessage, cap: number, tooLarge: StorageFailure = payloadTooLarge(cap)): Promise<{ ok: true; value: Buffer } | { ok: false; error: StorageFailure }> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (Number.isFinite(declared) && declared > cap) {
    req.resume();
    return { ok: false, error: tooLarge };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > cap) {
      req.unpipe();
      req.pause();
      return { ok: false, error: tooLarge };
    }
    chunks.push(chunk);
  }
  return { ok: true, value: Buffer.concat(chunks) };
}

export async function readJson(req: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false; error: StorageFailure }> {
  const body = await readCapped(req, STORAGE_JSON_MAX_BYTES, storageFailure(413, 'Payload too large', `The JSON body is larger than ${STORAGE_JSON_MAX_BYTES} bytes`));
  if (!body.ok) return body;
  const text = body.value.toString('utf8');
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, error: invalidRequest('The body is not valid JSON') };
  }
}

export interface UploadBody {
  readonly bytes: Uint8Array;
  readonly contentType: string;
  /** From the form's cacheControl field (multipart), else undefined (the header decides). */
  readonly cacheControl?: string;
  /** The app's own metadata (x-metadata, base64 JSON, or the form's metadata field). */
  readonly userMetadata?: Record<string, unknown>;
}

/**
 * An upload's file, as storage-js sends it: a raw body (Buffer, string, stream: Content-Type is the
 * file's type) or a multipart form (a Blob or File: fields cacheControl, metadata and one file).
 * `cap` is the file's limit; a form may add MULTIPART_OVERHEAD_BYTES around it.
 */
export async function readUpload(req: IncomingMessage, cap: number): Promise<{ ok: true; value: UploadBody } | { ok: false; error: StorageFailure }> {
  const contentType = header(req, 'content-type') ?? 'application/octet-stream';
  const multipart = /^multipart\/form-data/i.test(contentType);
  const body = await readCapped(req, multipart ? cap + MULTIPART_OVERHEAD_BYTES : cap, payloadTooLarge(cap));
  if (!body.ok) return body;
  const userMetadata = metadataHeader(header(req, 'x-metadata'));
  if (userMetadata === 'invalid') return { ok: false, error: invalidRequest('x-metadata must be base64 of a JSON object') };
  if (!multipart) return { ok: true, value: { bytes: body.value, contentType, ...(userMetadata === undefined ? {} : { userMetadata }) } };
  let form: FormData;
  try {
    form = await new Response(body.value, { headers: { 'content-type': contentType } }).formData();
  } catch {
    return { ok: false, error: invalidRequest('The multipart form could not be read') };
  }
  const file = [...form.values()].find((v) => typeof v !== 'string') as { type: string; arrayBuffer(): Promise<ArrayBuffer> } | undefined;
  if (file === undefined) return { ok: false, error: invalidRequest('The form has no file') };
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.length > cap) return { ok: false, error: payloadTooLarge(cap) };
  const cache = form.get('cacheControl');
  let formMetadata: Record<string, unknown> | undefined;
  const meta = form.get('metadata');
  if (typeof meta === 'string') {
    const parsed = jsonObject(meta);
    if (parsed === null) return { ok: false, error: invalidRequest('The form’s metadata must be a JSON object') };
    formMetadata = parsed;
  }
  const metadata = formMetadata ?? (userMetadata === undefined ? undefined : userMetadata);
  return {
    ok: true,
    value: { bytes, contentType: file.type === '' ? 'application/octet-stream' : file.type, ...(typeof cache === 'string' ? { cacheControl: cache } : {}), ...(metadata === undefined ? {} : { userMetadata: metadata }) },
  };
}

function jsonObject(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function metadataHeader(value: string | undefined): Record<string, unknown> | undefined | 'invalid' {
  if (value === undefined || value === '') return undefined;
  if (value.length > 8192) return 'invalid';
  const parsed = jsonObject(Buffer.from(value, 'base64').toString('utf8'));
  return parsed ?? 'invalid';
}

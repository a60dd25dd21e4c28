import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Files up to this size are kept in memory (with their compressed forms); larger ones are read on each request. */
export const MAX_CACHED_FILE_BYTES = 8 * 1024 * 1024;
/** Smaller bodies are not worth compressing. */
const MIN_COMPRESS_BYTES = 512;
/** Folders a request path may go down. */
export const MAX_PATH_SEGMENTS = 32;

const TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  webmanifest: 'application/manifest+json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  svg: 'image/svg+xml; charset=utf-8',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  wasm: 'application/wasm',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
};

/** The Content-Type of a file name (application/octet-stream when unknown: with nosniff, never run as a script). */
export function contentTypeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot < 0 ? undefined : TYPES[name.slice(dot + 1).toLowerCase()]) ?? 'application/octet-stream';
}

const COMPRESSIBLE = /^(text\/|application\/(json|manifest\+json|xml|wasm)|image\/svg\+xml|image\/x-icon|font\/(ttf|otf))/;

/** Vite's hashed output (`assets/index-B2x9_kQa.js`): its name changes with its content, so it may be cached for ever. */
export function isHashedAsset(segments: readonly string[]): boolean {
  const name = segments[segments.length - 1] ?? '';
  return segments.length >= 2 && segments[0] === 'assets' && /-[A-Za-z0-9_-]{8,}\.[A-Za-z0-9]+$/.test(name);
}

/** One file of a release as served: its bytes and compressed forms, computed once (releases never change). */
export interface SiteFile {
  readonly kind: 'file';
  readonly body: Buffer;
  readonly gzip: Buffer | null;
  readonly br: Buffer | null;
  /** Strong validator of the content (the compressed forms add -gz, -br). */
  readonly tag: string;
  readonly contentType: string;
  readonly cacheControl: string;
  /** The path of the file served (index.html for a client-side route). */
  readonly served: string;
}

/** A file too large to keep in memory: streamed from its descriptor. */
export interface LargeSiteFile {
  readonly kind: 'large';
  readonly file: string;
  readonly size: number;
  readonly tag: string;
  readonly contentType: string;
  readonly cacheControl: string;
}

/** `route`: a path without an extension that is no file: a client-side route, answered with index.html. */
export type SiteLookup = SiteFile | LargeSiteFile | { readonly kind: 'missing' } | { readonly kind: 'route' };

export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
export const CACHE_REVALIDATE = 'no-cache';

/**
 * What `segments` (decoded, checked names) of the release folder `releaseDir` serve: the file; the
 * folder's index.html for a folder; `route` for a path without an extension (a client-side route:
 * the caller answers the release's index.html, the SPA fallback); else missing. Never through a link: each folder on the
 * way is checked with lstat, the file opened with O_NOFOLLOW and checked again with fstat.
 */
export async function loadSiteFile(releaseDir: string, segments: readonly string[]): Promise<SiteLookup> {
  const direct = await regularFile(releaseDir, segments);
  if (direct === 'folder') {
    const index = await regularFile(releaseDir, [...segments, 'index.html']);
    if (index !== null && index !== 'folder') return read(index, 'index.html', [...segments, 'index.html']);
  } else if (direct !== null) {
    return read(direct, segments[segments.length - 1] ?? '', segments);
  }
  const last = segments[segments.length - 1] ?? '';
  if (last.includes('.') || segments.length === 0) return { kind: 'missing' };
  return { kind: 'route' };
}

/** The file's path when every step is a real folder and the last a regular file; 'folder'; or null. */
async function regularFile(releaseDir: string, segments: readonly string[]): Promise<string | 'folder' | null> {
  let current = releaseDir;
  for (const [i, name] of segments.entries()) {
    current = path.join(current, name);
    const info = await lstat(current).catch(() => null);
    if (info === null) return null;
    if (i < segments.length - 1 && !info.isDirectory()) return null;
    if (i === segments.length - 1) return info.isDirectory() ? 'folder' : info.isFile() ? current : null;
  }
  return 'folder'; // no segments: the release's root
}

async function read(file: string, name: string, segments: readonly string[]): Promise<SiteLookup> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => null);
  if (handle === null) return { kind: 'missing' };
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { kind: 'missing' };
    const contentType = contentTypeOf(name);
    const cacheControl = isHashedAsset(segments) ? CACHE_IMMUTABLE : CACHE_REVALIDATE;
    if (info.size > MAX_CACHED_FILE_BYTES) {
      // Releases never change: size and modification time name the content.
      return { kind: 'large', file, size: info.size, tag: `"L${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`, contentType, cacheControl };
    }
    const body = await handle.readFile();
    const tag = createHash('sha1').update(body).digest('base64url').slice(0, 20);
    const compress = COMPRESSIBLE.test(contentType) && body.length >= MIN_COMPRESS_BYTES;
    const [gz, br] = compress
      ? await Promise.all([
          gzipAsync(body, { level: 9 }),
          brotli(body, {
            params: {
              [zlibConstants.BROTLI_PARAM_QUALITY]: body.length > 256 * 1024 ? 9 : 11,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
        ])
      : [null, null];
    return {
      kind: 'file',
      body,
      gzip: gz !== null && gz.length < body.length ? gz : null,
      br: br !== null && br.length < body.length ? br : null,
      tag,
      contentType,
      cacheControl,
      served: segments.join('/'),
    };
  } finally {
    await handle.close();
  }
}

/**
 * The decoded names of a request path, or null when it is refused: not absolute, a backslash or
 * a NUL byte (raw or encoded), an encoded slash, `.` or `..` (raw or encoded), bad escapes, too
 * long. An empty path or a trailing slash means the folder itself.
 */
export function requestSegments(url: string | undefined): string[] | null {
  if (url === undefined || !url.startsWith('/') || url.length > 4096) return null;
  const raw = url.split(/[?#]/, 1)[0] as string;
  if (raw.includes('\\') || raw.includes('\0')) return null;
  const parts = raw.split('/').slice(1);
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop(); // a trailing slash: the folder
  if (parts.length > MAX_PATH_SEGMENTS) return null;
  const out: string[] = [];
  for (const part of parts) {
    let name: string;
    try {
      name = decodeURIComponent(part);
    } catch {
      return null;
    }
    if (name === '' || name === '.' || name === '..' || /[/\\\0]/.test(name) || /[\u0000-\u001f\u007f]/.test(name)) return null;
    out.push(name);
  }
  return out;
}

/** The bytes a cache entry holds (for the cache's budget). */
export function entryBytes(entry: SiteLookup): number {
  if (entry.kind !== 'file') return 256;
  return entry.body.length + (entry.gzip?.length ?? 0) + (entry.br?.length ?? 0) + 256;
}

import {
  type DataApiTarget,
  type StorageFailure,
  type StorageLimits,
  SIGNED_UPLOAD_SECONDS,
  bucketIdError,
  bucketNotFound,
  duplicate,
  emptyFile,
  fileLimitOf,
  fitsStorageQuota,
  invalidRequest,
  mimeAllowed,
  mimeOf,
  mimeTypeRefused,
  normaliseObjectPath,
  objectNotFound,
  parseCacheControl,
  parseExpiresIn,
  parseListOptions,
  parseListV2Options,
  parseUpsert,
  payloadTooLarge,
  storageQuotaExceeded,
  storageUnavailable,
} from '@kiln/domain';
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RoleSql } from '../databases/pg-data-api.js';
import type { Signer } from './signed-object-tokens.js';
import { StorageRefusal } from './storage-errors-pg.js';
import { header, readJson, readUpload, sendFailure, sendJson } from './storage-http.js';
import { type ObjectMetadata, type ObjectRow, storageSql } from './storage-metadata.js';
import { type Answer, type StorageCaller, type StorageService, isVersion } from './storage-service.js';

type PathResult = { ok: true; bucket: string; name: string } | { ok: false; error: StorageFailure };
const MAX_PATHS = 1000;

function bucketAndPath(segments: readonly string[]): PathResult {
  const bucket = segments[0];
  if (bucket === undefined || bucketIdError(bucket) !== null) return { ok: false, error: bucketNotFound() };
  const name = normaliseObjectPath(segments.slice(1).join('/'));
  return name.ok ? { ok: true, bucket, name: name.value } : { ok: false, error: name.error };
}

const signerOf = (caller: StorageCaller): Signer => ({
  role: caller.role,
  ...(typeof caller.claims['sub'] === 'string' ? { sub: caller.claims['sub'] } : {}),
  ...(typeof caller.claims['email'] === 'string' ? { email: caller.claims['email'] } : {}),
});

/** The object routes of /storage/v1 (StorageService hands them the segments after `object`). */
export class ObjectRoutes {
  constructor(private readonly service: StorageService) {}

  private get o() {
    return this.service.options;
  }

  /** Public and signed URLs (no key needed). True when it answered. */
  async withoutKey(target: DataApiTarget, method: string, segments: readonly string[], query: URLSearchParams, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (segments[0] !== 'object') return false;
    const kind = segments[1];
    if (kind === 'public' && (method === 'GET' || method === 'HEAD')) {
      const at = bucketAndPath(segments.slice(2));
      if (!at.ok) return (sendFailure(res, at.error, method), true);
      const found = await this.service.asCaller({ target, role: 'anon', claims: { role: 'anon' } }, async (sql) => (await sql.query<{ version: string; metadata: ObjectMetadata }>('SELECT * FROM storage.kiln_public_object($1, $2)', [at.bucket, at.name]))[0] ?? null);
      if (!found.ok) return (sendFailure(res, found.error, method), true);
      if (found.value === null) return (sendFailure(res, objectNotFound(), method), true);
      await this.sendBytes(target.ref, found.value, method, query, res);
      return true;
    }
    if (kind === 'sign' && method === 'GET' && segments.length > 3) {
      const at = bucketAndPath(segments.slice(2));
      if (!at.ok) return (sendFailure(res, at.error, method), true);
      const token = await this.service.tokens.verify(target.jwtSecret, query.get('token'), at.bucket, at.name, 'download');
      if (!token.ok) return (sendFailure(res, token.error, method), true);
      const found = await this.service.asCaller(this.service.signerCaller(target, token.value.signer), (sql) => storageSql.findObject(sql, at.bucket, at.name));
      if (!found.ok) return (sendFailure(res, found.error, method), true);
      if (found.value === null) return (sendFailure(res, objectNotFound(), method), true);
      await this.sendBytes(target.ref, found.value, method, query, res);
      return true;
    }
    if (kind === 'upload' && segments[2] === 'sign' && method === 'PUT') {
      const at = bucketAndPath(segments.slice(3));
      if (!at.ok) return (req.resume(), sendFailure(res, at.error, method), true);
      const token = await this.service.tokens.verify(target.jwtSecret, query.get('token'), at.bucket, at.name, 'upload');
      if (!token.ok) return (req.resume(), sendFailure(res, token.error, method), true);
      const caller = this.service.signerCaller(target, token.value.signer);
      // Only the signer decides whether it may overwrite: the uploader's own x-upsert is not asked.
      const stored = await this.upload(caller, at.bucket, at.name, token.value.upsert, req);
      if (!stored.ok) return (sendFailure(res, stored.error, method), true);
      sendJson(res, 200, { Key: `${at.bucket}/${at.name}`, Id: (stored.value as { Id: string }).Id });
      return true;
    }
    return false;
  }

  async route(caller: StorageCaller, method: string, rest: string[], req: IncomingMessage, res: ServerResponse): Promise<Answer | 'sent' | null> {
    const [first] = rest;
    if (first === 'list' && method === 'POST' && rest.length === 2) return this.list(caller, rest[1] as string, req);
    if (first === 'list-v2' && method === 'POST' && rest.length === 2) return this.listV2(caller, rest[1] as string, req);
    if ((first === 'move' || first === 'copy') && method === 'POST' && rest.length === 1) return this.moveOrCopy(caller, first, req);
    if (first === 'sign' && method === 'POST' && rest.length === 2) return this.signMany(caller, rest[1] as string, req);
    if (first === 'sign' && method === 'POST') return this.signOne(caller, rest.slice(1), req);
    if (first === 'upload' && rest[1] === 'sign' && method === 'POST') return this.signUpload(caller, rest.slice(2), req);
    if (first === 'info' && method === 'GET') return this.info(caller, rest[1] === 'authenticated' || rest[1] === 'public' ? rest.slice(2) : rest.slice(1));
    if (method === 'DELETE' && rest.length === 1) return this.removeMany(caller, first as string, req);
    const path = first === 'authenticated' ? rest.slice(1) : rest;
    if (method === 'GET' || method === 'HEAD') {
      const at = bucketAndPath(path);
      if (!at.ok) return at;
      const found = await this.service.asCaller(caller, (sql) => storageSql.findObject(sql, at.bucket, at.name));
      if (!found.ok) return found;
      if (found.value === null) return { ok: false, error: objectNotFound() };
      await this.sendBytes(caller.target.ref, found.value, method, new URLSearchParams(), res);
      return 'sent';
    }
    if (method === 'POST' || method === 'PUT') {
      const at = bucketAndPath(path);
      if (!at.ok) return (req.resume(), at);
      // PUT is update(): it replaces an existing object only.
      const upsert = method === 'PUT' ? 'replace' : parseUpsert(header(req, 'x-upsert'));
      const stored = await this.upload(caller, at.bucket, at.name, upsert, req);
      return stored.ok ? { ok: true, value: stored.value } : stored;
    }
    if (method === 'DELETE') {
      const at = bucketAndPath(path);
      if (!at.ok) return at;
      const removed = await this.service.asCaller(caller, (sql) => storageSql.deleteObjects(sql, at.bucket, [at.name]));
      if (!removed.ok) return removed;
      if (removed.value.length === 0) return { ok: false, error: objectNotFound() };
      await this.service.deleteBytes(caller.target.ref, removed.value.map((r) => r.version));
      return { ok: true, value: { message: 'Successfully deleted' } };
    }
    return null;
  }

  /**
   * One upload: bytes to a new key first, then the metadata in one transaction as the caller (the
   * bucket's limits, the plan's quota, insert or replace under RLS); on any failure the new key is
   * deleted; after an overwrite commits, the old key is. `upsert` 'replace': only an existing object.
   */
  async upload(caller: StorageCaller, bucket: string, name: string, upsert: boolean | 'replace', req: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false; error: StorageFailure }> {
    const ref = caller.target.ref;
    const limits = await this.service.asCaller(caller, (sql) => storageSql.bucketLimits(sql, bucket));
    if (!limits.ok) return (req.resume(), limits);
    if (limits.value === null) return (req.resume(), { ok: false, error: bucketNotFound() });
    const cap = fileLimitOf(limits.value.fileSizeLimit, this.o.maxFileBytes);
    const declaredType = header(req, 'content-type') ?? '';
    // A raw body's type is known before reading: a refused type is not read at all.
    if (!/^multipart\/form-data/i.test(declaredType) && declaredType !== '' && !mimeAllowed(declaredType, limits.value.allowedMimeTypes)) {
      req.resume();
      return { ok: false, error: mimeTypeRefused(mimeOf(declaredType)) };
    }
    const body = await readUpload(req, cap);
    if (!body.ok) return body;
    const { bytes, contentType } = body.value;
    if (!mimeAllowed(contentType, limits.value.allowedMimeTypes)) return { ok: false, error: mimeTypeRefused(mimeOf(contentType)) };
    if (bytes.length === 0) return { ok: false, error: emptyFile() };
    if (bytes.length > cap) return { ok: false, error: payloadTooLarge(cap) };
    const quota = await this.quotaOf(caller);
    if (quota === null) return { ok: false, error: storageUnavailable() };
    const version = this.o.newVersion();
    const key = this.service.key(ref, version);
    try {
      await this.o.objects.put(key, bytes, contentType);
    } catch {
      await this.o.objects.delete([key]).catch(() => undefined);
      return { ok: false, error: storageUnavailable() };
    }
    const metadata: ObjectMetadata = {
      eTag: `"${createHash('md5').update(bytes).digest('hex')}"`,
      size: bytes.length,
      mimetype: contentType,
      cacheControl: `max-age=${parseCacheControl(body.value.cacheControl ?? header(req, 'cache-control'))}`,
      lastModified: this.o.clock.now().toISOString(),
      contentLength: bytes.length,
      httpStatusCode: 200,
    };
    const sub = typeof caller.claims['sub'] === 'string' ? caller.claims['sub'] : null;
    const written = await this.service
      .asCaller(caller, async (sql) => {
        const existing = await storageSql.findObject(sql, bucket, name, true);
        if (existing !== null && upsert === false) throw new StorageRefusal(duplicate());
        if (existing === null && upsert === 'replace') throw new StorageRefusal(objectNotFound());
        const used = await storageSql.usedBytes(sql);
        if (!fitsStorageQuota(used, existing?.metadata.size ?? 0, bytes.length, quota)) throw new StorageRefusal(storageQuotaExceeded(used, quota.quotaBytes));
        const userMetadata = body.value.userMetadata ?? null;
        let current = existing;
        if (current === null) {
          // An upsert racing another upload of the same new name: the loser replaces the winner's row.
          if (upsert !== true) return { row: await storageSql.insertObject(sql, bucket, name, version, metadata, userMetadata, sub), old: null };
          await sql.query('SAVEPOINT kiln_insert');
          try {
            return { row: await storageSql.insertObject(sql, bucket, name, version, metadata, userMetadata, sub), old: null };
          } catch (e) {
            if ((e as { code?: unknown }).code !== '23505') throw e;
            await sql.query('ROLLBACK TO SAVEPOINT kiln_insert');
            current = await storageSql.findObject(sql, bucket, name, true);
            if (current === null) throw e;
          }
        }
        const row = await storageSql.replaceObject(sql, current.id, version, metadata, userMetadata);
        if (row === null) throw new StorageRefusal({ status: 403, error: 'Unauthorized', message: 'new row violates row-level security policy' });
        return { row, old: current.version };
      })
      .catch(async (e: unknown) => {
        await this.o.objects.delete([key]).catch(() => undefined);
        throw e;
      });
    if (!written.ok) {
      await this.o.objects.delete([key]).catch(() => undefined);
      return written;
    }
    if (written.value.old !== null) await this.service.deleteBytes(ref, [written.value.old]);
    return { ok: true, value: { Id: written.value.row.id, Key: `${bucket}/${name}` } };
  }

  private async sendBytes(ref: string, row: Pick<ObjectRow, 'version' | 'metadata'>, method: string, query: URLSearchParams, res: ServerResponse): Promise<void> {
    if (!isVersion(row.version)) return sendFailure(res, objectNotFound(), method);
    let stored;
    try {
      stored = await this.o.objects.get(this.service.key(ref, row.version));
    } catch {
      return sendFailure(res, storageUnavailable(), method);
    }
    if (stored === null) return sendFailure(res, objectNotFound(), method);
    const m = row.metadata;
    const headers: Record<string, string> = {
      'Content-Type': stored.contentType,
      'Content-Length': String(stored.bytes.length),
      'Cache-Control': typeof m.cacheControl === 'string' ? m.cacheControl : 'max-age=3600',
      'X-Content-Type-Options': 'nosniff',
      // An app's upload is never run as a page of the data origin.
      'Content-Security-Policy': "default-src 'none'; sandbox",
    };
    if (typeof m.eTag === 'string') headers['ETag'] = m.eTag;
    if (typeof m.lastModified === 'string') headers['Last-Modified'] = new Date(m.lastModified).toUTCString();
    const download = query.get('download');
    if (download !== null) headers['Content-Disposition'] = `attachment${download === '' ? '' : `; filename*=UTF-8''${encodeURIComponent(download.slice(0, 200))}`}`;
    res.writeHead(200, headers);
    res.end(method === 'HEAD' ? undefined : Buffer.from(stored.bytes.buffer, stored.bytes.byteOffset, stored.bytes.byteLength));
  }

  private async info(caller: StorageCaller, segments: readonly string[]): Promise<Answer> {
    const at = bucketAndPath(segments);
    if (!at.ok) return at;
    const found = await this.service.asCaller(caller, (sql) => storageSql.findObject(sql, at.bucket, at.name));
    if (!found.ok) return found;
    const row = found.value;
    if (row === null) return { ok: false, error: objectNotFound() };
    const m = row.metadata;
    return {
      ok: true,
      value: {
        id: row.id,
        version: row.version,
        name: row.name,
        bucket_id: row.bucket_id,
        created_at: row.created_at,
        updated_at: row.updated_at,
        last_modified: row.updated_at,
        size: m.size,
        cache_control: m.cacheControl,
        content_type: m.mimetype,
        etag: m.eTag,
        metadata: (m as unknown as { userMetadata?: unknown }).userMetadata ?? {},
      },
    };
  }

  private async list(caller: StorageCaller, bucket: string, req: IncomingMessage): Promise<Answer> {
    const body = await readJson(req);
    if (!body.ok) return body;
    const options = parseListOptions(body.value);
    if (!options.ok) return options;
    if (bucketIdError(bucket) !== null) return { ok: false, error: bucketNotFound() };
    return this.service.asCaller(caller, (sql) => storageSql.list(sql, bucket, options.value));
  }

  private async listV2(caller: StorageCaller, bucket: string, req: IncomingMessage): Promise<Answer> {
    const body = await readJson(req);
    if (!body.ok) return body;
    const options = parseListV2Options(body.value);
    if (!options.ok) return options;
    if (bucketIdError(bucket) !== null) return { ok: false, error: bucketNotFound() };
    const rows = await this.service.asCaller(caller, (sql) => storageSql.listV2(sql, bucket, options.value));
    if (!rows.ok) return rows;
    const page = rows.value.slice(0, options.value.limit);
    const hasNext = rows.value.length > options.value.limit;
    return {
      ok: true,
      value: {
        hasNext,
        folders: page.filter((r) => r.folder).map((r) => ({ name: r.key.replace(/\/$/, '').split('/').pop(), key: r.key })),
        objects: page.filter((r) => !r.folder).map((r) => ({ name: r.key, key: r.key, id: r.id, updated_at: r.updated_at, created_at: r.created_at, last_accessed_at: r.updated_at, metadata: r.metadata })),
        ...(hasNext && page.length > 0 ? { nextCursor: page[page.length - 1]!.key } : {}),
      },
    };
  }

  private async moveOrCopy(caller: StorageCaller, kind: 'move' | 'copy', req: IncomingMessage): Promise<Answer> {
    const body = await readJson(req);
    if (!body.ok) return body;
    const b = (typeof body.value === 'object' && body.value !== null ? body.value : {}) as Record<string, unknown>;
    const bucket = b['bucketId'];
    const toBucket = b['destinationBucket'] ?? bucket;
    if (typeof bucket !== 'string' || bucketIdError(bucket) !== null || typeof toBucket !== 'string' || bucketIdError(toBucket) !== null) return { ok: false, error: bucketNotFound() };
    if (typeof b['sourceKey'] !== 'string' || typeof b['destinationKey'] !== 'string') return { ok: false, error: invalidRequest('sourceKey and destinationKey are required') };
    const from = normaliseObjectPath(b['sourceKey']);
    if (!from.ok) return from;
    const to = normaliseObjectPath(b['destinationKey']);
    if (!to.ok) return to;
    if (kind === 'move') {
      const moved = await this.service.asCaller(caller, (sql) => storageSql.moveObject(sql, bucket, from.value, toBucket, to.value));
      if (!moved.ok) return moved;
      return moved.value ? { ok: true, value: { message: 'Successfully moved' } } : { ok: false, error: objectNotFound() };
    }
    return this.copy(caller, bucket, from.value, toBucket, to.value, parseUpsert(header(req, 'x-upsert')));
  }

  /** The owner's plan limits for this project's files; null when Kiln's own database cannot say (503). */
  private async quotaOf(caller: StorageCaller): Promise<StorageLimits | null> {
    return this.o.quotas.limitsFor(caller.target).catch(() => null);
  }

  /** Copy: the source read as the caller, its bytes copied to a new key, then the new row as the caller (limits, quota, RLS). */
  private async copy(caller: StorageCaller, bucket: string, from: string, toBucket: string, to: string, upsert: boolean): Promise<Answer> {
    const ref = caller.target.ref;
    const source = await this.service.asCaller(caller, async (sql) => ({ row: await storageSql.findObject(sql, bucket, from), limits: await storageSql.bucketLimits(sql, toBucket) }));
    if (!source.ok) return source;
    const { row, limits } = source.value;
    if (row === null || !isVersion(row.version)) return { ok: false, error: objectNotFound() };
    if (limits === null) return { ok: false, error: bucketNotFound() };
    if (!mimeAllowed(row.metadata.mimetype, limits.allowedMimeTypes)) return { ok: false, error: mimeTypeRefused(mimeOf(row.metadata.mimetype)) };
    const cap = fileLimitOf(limits.fileSizeLimit, this.o.maxFileBytes);
    if (row.metadata.size > cap) return { ok: false, error: payloadTooLarge(cap) };
    const quota = await this.quotaOf(caller);
    if (quota === null) return { ok: false, error: storageUnavailable() };
    const version = this.o.newVersion();
    const key = this.service.key(ref, version);
    try {
      if (!(await this.o.objects.copy(this.service.key(ref, row.version), key))) return { ok: false, error: objectNotFound() };
    } catch {
      await this.o.objects.delete([key]).catch(() => undefined);
      return { ok: false, error: storageUnavailable() };
    }
    const sub = typeof caller.claims['sub'] === 'string' ? caller.claims['sub'] : null;
    const written = await this.service
      .asCaller(caller, async (sql: RoleSql) => {
        const existing = await storageSql.findObject(sql, toBucket, to, true);
        if (existing !== null && !upsert) throw new StorageRefusal(duplicate());
        const used = await storageSql.usedBytes(sql);
        if (!fitsStorageQuota(used, existing?.metadata.size ?? 0, row.metadata.size, quota)) throw new StorageRefusal(storageQuotaExceeded(used, quota.quotaBytes));
        const metadata = { ...row.metadata, lastModified: this.o.clock.now().toISOString() };
        if (existing === null) return { old: null, row: await storageSql.insertObject(sql, toBucket, to, version, metadata, null, sub) };
        const replaced = await storageSql.replaceObject(sql, existing.id, version, metadata, null);
        if (replaced === null) throw new StorageRefusal({ status: 403, error: 'Unauthorized', message: 'new row violates row-level security policy' });
        return { old: existing.version, row: replaced };
      })
      .catch(async (e: unknown) => {
        await this.o.objects.delete([key]).catch(() => undefined);
        throw e;
      });
    if (!written.ok) {
      await this.o.objects.delete([key]).catch(() => undefined);
      return written;
    }
    if (written.value.old !== null) await this.service.deleteBytes(ref, [written.value.old]);
    return { ok: true, value: { Key: `${toBucket}/${to}`, Id: written.value.row.id } };
  }

  private async removeMany(caller: StorageCaller, bucket: string, req: IncomingMessage): Promise<Answer> {
    const body = await readJson(req);
    if (!body.ok) return body;
    const prefixes = (body.value as { prefixes?: unknown } | null)?.prefixes;
    if (!Array.isArray(prefixes) || prefixes.length === 0 || prefixes.length > MAX_PATHS) return { ok: false, error: invalidRequest(`prefixes must be a list of 1 to ${MAX_PATHS} paths`) };
    if (bucketIdError(bucket) !== null) return { ok: false, error: bucketNotFound() };
    const names: string[] = [];
    for (const p of prefixes) {
      const name = normaliseObjectPath(typeof p === 'string' ? p : '');
      if (!name.ok) return name;
      names.push(name.value);
    }
    const removed = await this.service.asCaller(caller, (sql) => storageSql.deleteObjects(sql, bucket, names));
    if (!removed.ok) return removed;
    await this.service.deleteBytes(caller.target.ref, removed.value.map((r) => r.version));
    return { ok: true, value: removed.value.map((r) => ({ name: r.name, bucket_id: r.bucket_id, id: r.id, owner: r.owner, updated_at: r.updated_at, created_at: r.created_at, last_accessed_at: r.last_accessed_at, metadata: r.metadata })) };
  }

  private async signOne(caller: StorageCaller, segments: readonly string[], req: IncomingMessage): Promise<Answer> {
    const body = await readJson(req);
    if (!body.ok) return body;
    const expiresIn = parseExpiresIn((body.value as { expiresIn?: unknown } | null)?.expiresIn);
    if (!expiresIn.ok) return expiresIn;
    const at = bucketAndPath(segments);
    if (!at.ok) return at;
    const found = await this.service.asCaller(caller, (sql) => storageSql.findObject(sql, at.bucket, at.name));
    if (!found.ok) return found;
    if (found.value === null) return { ok: false, error: objectNotFound() };
    const token = await this.service.tokens.sign(caller.target.jwtSecret, at.bucket, at.name, 'download', expiresIn.value, signerOf(caller));
    return { ok: true, value: { signedURL: `/object/sign/${at.bucket}/${at.name}?token=${token}` } };
  }

  private async signMany(caller: StorageCaller, bucket: string, req: IncomingMessage): Promise<Answer> {
    const body = await readJson(req);
    if (!body.ok) return body;
    const b = (body.value ?? {}) as { expiresIn?: unknown; paths?: unknown };
    const expiresIn = parseExpiresIn(b.expiresIn);
    if (!expiresIn.ok) return expiresIn;
    if (!Array.isArray(b.paths) || b.paths.length === 0 || b.paths.length > MAX_PATHS) return { ok: false, error: invalidRequest(`paths must be a list of 1 to ${MAX_PATHS} paths`) };
    if (bucketIdError(bucket) !== null) return { ok: false, error: bucketNotFound() };
    const names = b.paths.map((p: unknown) => (typeof p === 'string' ? normaliseObjectPath(p) : normaliseObjectPath('')));
    const valid = names.flatMap((n) => (n.ok ? [n.value] : []));
    const seen = await this.service.asCaller(caller, async (sql) => new Set((await sql.query<{ name: string }>('SELECT name FROM storage.objects WHERE bucket_id = $1 AND name = ANY($2::text[])', [bucket, valid])).map((r) => r.name)));
    if (!seen.ok) return seen;
    const out = [];
    for (const [i, n] of names.entries()) {
      const asked = b.paths[i] as unknown;
      if (!n.ok) out.push({ error: n.error.message, path: typeof asked === 'string' ? asked : null, signedURL: null });
      else if (!seen.value.has(n.value)) out.push({ error: 'Either the object does not exist or you do not have access to it', path: n.value, signedURL: null });
      else out.push({ error: null, path: n.value, signedURL: `/object/sign/${bucket}/${n.value}?token=${await this.service.tokens.sign(caller.target.jwtSecret, bucket, n.value, 'download', expiresIn.value, signerOf(caller))}` });
    }
    return { ok: true, value: out };
  }

  /** A signed upload URL: the caller must be allowed to insert there now (tried, then rolled back). */
  private async signUpload(caller: StorageCaller, segments: readonly string[], req: IncomingMessage): Promise<Answer> {
    req.resume();
    const at = bucketAndPath(segments);
    if (!at.ok) return at;
    const upsert = parseUpsert(header(req, 'x-upsert'));
    const probe = await this.service.asCaller(caller, async (sql) => {
      if ((await storageSql.bucketLimits(sql, at.bucket)) === null) throw new StorageRefusal(bucketNotFound());
      const existing = await storageSql.findObject(sql, at.bucket, at.name);
      if (existing !== null && !upsert) throw new StorageRefusal(duplicate());
      if (existing === null) {
        const sub = typeof caller.claims['sub'] === 'string' ? caller.claims['sub'] : null;
        await sql.query('SAVEPOINT probe');
        await storageSql.insertObject(sql, at.bucket, at.name, '00000000-0000-4000-8000-000000000000', { eTag: '', size: 0, mimetype: '', cacheControl: '', lastModified: '', contentLength: 0, httpStatusCode: 200 }, null, sub);
        await sql.query('ROLLBACK TO SAVEPOINT probe');
      }
    });
    if (!probe.ok) return probe;
    const token = await this.service.tokens.sign(caller.target.jwtSecret, at.bucket, at.name, 'upload', SIGNED_UPLOAD_SECONDS, signerOf(caller), upsert);
    return { ok: true, value: { url: `/object/upload/sign/${at.bucket}/${at.name}?token=${token}`, token } };
  }
}

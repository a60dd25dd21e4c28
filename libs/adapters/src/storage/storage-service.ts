import {
  type Clock,
  type DataApiTarget,
  type DataApiTargets,
  type ObjectStore,
  type StorageFailure,
  type StorageLimits,
  bucketIdError,
  bucketNotFound,
  invalidKey,
  invalidRequest,
  normaliseObjectPath,
  objectKey,
  parseBucketCreate,
  parseBucketUpdate,
  storageFailure,
  storageUnavailable,
} from '@kiln/domain';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, VerifiedTokens } from '../databases/data-api-auth.js';
import type { DataOriginService } from '../databases/data-api-server.js';
import { DataApiTargetCache } from '../databases/data-api-target-cache.js';
import type { RequestRole, RoleSql } from '../databases/pg-data-api.js';
import { SignedObjectTokens, type Signer } from './signed-object-tokens.js';
import { StorageRefusal, storageFailureOf } from './storage-errors-pg.js';
import { corsHeaders, header, preflight, readJson, sendFailure, sendJson } from './storage-http.js';
import { storageSql } from './storage-metadata.js';
import { ObjectRoutes } from './storage-object-routes.js';

/** Runs storage's SQL in one transaction as a request role (PgDataApi.transaction). */
export interface StorageTransactions {
  transaction<T>(target: DataApiTarget, role: RequestRole, claims: Record<string, unknown>, work: (sql: RoleSql) => Promise<T>): Promise<T>;
}

/** The owner's plan's storage quota for a project (throws when Kiln's own database is unreachable). */
export interface StorageQuotas {
  limitsFor(target: DataApiTarget): Promise<StorageLimits>;
}

export interface StorageServiceOptions {
  readonly targets: DataApiTargets;
  readonly db: StorageTransactions;
  readonly objects: ObjectStore;
  readonly quotas: StorageQuotas;
  /** The global cap of one file (STORAGE_MAX_FILE_MB); a bucket's file_size_limit may only be lower. */
  readonly maxFileBytes: number;
  readonly clock: Clock;
  /** A new object version (a v4 uuid: the ObjectStore key part). */
  readonly newVersion: () => string;
  readonly log?: (error: unknown) => void;
  /** The project-database lookup's cache, ms (tests: 0). */
  readonly targetCacheMs?: number;
}

/** Who is calling, with the project they call. */
export interface StorageCaller {
  readonly target: DataApiTarget;
  readonly role: RequestRole;
  readonly claims: Record<string, unknown>;
}

export type Answer = { ok: true; value: unknown; status?: number } | { ok: false; error: StorageFailure };

/** The path of a request under /storage/v1, split into decoded segments (400 when it cannot be decoded). */
export function segmentsOf(path: string): string[] | null {
  try {
    return path.split('/').filter((s, i, all) => !(s === '' && (i === 0 || i === all.length - 1))).map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
}

/**
 * `/storage/v1` on the data origin (docs/databases.md "Storage"), speaking what
 * `@supabase/storage-js` 2.109 sends. Metadata lives in the project database's `storage` schema
 * and every read and write of it runs in one transaction as the caller's role with its claims,
 * so the app's row-level security policies decide; bytes live in the ObjectStore under
 * `{ref}/{version}`, a key Kiln chooses.
 */
export class StorageService implements DataOriginService {
  readonly prefix = '/storage/v1';
  private readonly targets: DataApiTargetCache;
  private readonly verified = new VerifiedTokens();
  readonly tokens: SignedObjectTokens;
  private readonly objectRoutes: ObjectRoutes;

  constructor(readonly options: StorageServiceOptions) {
    this.targets = new DataApiTargetCache(options.targets, options.targetCacheMs);
    this.tokens = new SignedObjectTokens(options.clock);
    this.objectRoutes = new ObjectRoutes(this);
  }

  /** The project database was detached, deleted or reprovisioned: look it up again on the next request. */
  forget(ref: string): void {
    this.targets.forget(ref);
  }

  handle(ref: string, req: IncomingMessage, res: ServerResponse): void {
    this.serve(ref, req, res).catch((e: unknown) => {
      (this.options.log ?? ((x) => console.error('storage:', x)))(e);
      if (!res.headersSent) sendFailure(res, storageFailure(500, 'InternalError', 'Internal error of storage'), req.method);
      else res.destroy();
    });
  }

  /** Runs `work` as the caller; a refusal, an RLS denial or an outage becomes its answer, a bug is thrown. */
  async asCaller<T>(caller: StorageCaller, work: (sql: RoleSql) => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: StorageFailure }> {
    try {
      return { ok: true, value: await this.options.db.transaction(caller.target, caller.role, caller.claims, work) };
    } catch (e) {
      const failure = storageFailureOf(e);
      if (failure === null) throw e;
      return { ok: false, error: failure };
    }
  }

  /** The caller of a signed URL: its signer, replayed. */
  signerCaller(target: DataApiTarget, signer: Signer): StorageCaller {
    return { target, role: signer.role, claims: { role: signer.role, ...(signer.sub ? { sub: signer.sub } : {}), ...(signer.email ? { email: signer.email } : {}) } };
  }

  key(ref: string, version: string): string {
    return objectKey(ref, version);
  }

  private async serve(ref: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    corsHeaders(res);
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') return preflight(res);
    const url = req.url ?? '/';
    if (url.length > 16 * 1024) return sendFailure(res, invalidKey('The request URL is too long'), method);
    const q = url.indexOf('?');
    const segments = segmentsOf((q < 0 ? url : url.slice(0, q)).slice(this.prefix.length));
    if (segments === null) return sendFailure(res, invalidKey('The path could not be decoded'), method);
    const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));

    let target: DataApiTarget | null;
    try {
      target = await this.targets.findByRef(ref);
    } catch {
      return sendFailure(res, storageUnavailable(), method);
    }
    if (target === null) return sendFailure(res, storageFailure(404, 'not_found', 'No project database at this address'), method);

    // Public URLs and signed URLs need no key: the bucket's flag or the token decides.
    const noKey = await this.objectRoutes.withoutKey(target, method, segments, query, req, res);
    if (noKey) return;

    const auth = await authenticate(header(req, 'apikey'), header(req, 'authorization'), target.jwtSecret, ref, this.verified);
    if (!auth.ok) return sendFailure(res, storageFailure(auth.error.status === 401 ? 401 : 403, 'Unauthorized', auth.error.message), method);
    const caller: StorageCaller = { target, role: auth.value.role, claims: auth.value.claims };

    const answer = segments[0] === 'bucket' ? await this.bucketRoute(caller, method, segments.slice(1), query, req) : segments[0] === 'object' ? await this.objectRoutes.route(caller, method, segments.slice(1), req, res) : null;
    if (answer === 'sent') return;
    if (answer === null) return sendFailure(res, storageFailure(404, 'not_found', `No route for ${method} ${url.slice(0, 200)}`), method);
    if (!answer.ok) return sendFailure(res, answer.error, method);
    sendJson(res, answer.status ?? 200, answer.value);
  }

  private async bucketRoute(caller: StorageCaller, method: string, rest: string[], query: URLSearchParams, req: IncomingMessage): Promise<Answer | null> {
    const max = this.options.maxFileBytes;
    if (rest.length === 0 && method === 'GET') return this.listBuckets(caller, query);
    if (rest.length === 0 && method === 'POST') {
      const body = await readJson(req);
      if (!body.ok) return body;
      const bucket = parseBucketCreate(body.value, max);
      if (!bucket.ok) return bucket;
      const made = await this.asCaller(caller, (sql) => storageSql.createBucket(sql, bucket.value));
      return made.ok ? { ok: true, value: { name: bucket.value.id } } : made;
    }
    const id = rest[0] as string;
    if (bucketIdError(id) !== null) return { ok: false, error: bucketNotFound() };
    if (rest.length === 2 && rest[1] === 'empty' && method === 'POST') {
      req.resume();
      const emptied = await this.asCaller(caller, async (sql) => {
        if ((await storageSql.getBucket(sql, id)) === null) throw new StorageRefusal(bucketNotFound());
        return storageSql.emptyBucket(sql, id);
      });
      if (!emptied.ok) return emptied;
      await this.deleteBytes(caller.target.ref, emptied.value);
      return { ok: true, value: { message: 'Successfully emptied' } };
    }
    if (rest.length !== 1) return null;
    switch (method) {
      case 'GET': {
        const found = await this.asCaller(caller, (sql) => storageSql.getBucket(sql, id));
        if (!found.ok) return found;
        return found.value === null ? { ok: false, error: bucketNotFound() } : { ok: true, value: found.value };
      }
      case 'PUT': {
        const body = await readJson(req);
        if (!body.ok) return body;
        const change = parseBucketUpdate(body.value, max);
        if (!change.ok) return change;
        const updated = await this.asCaller(caller, (sql) => storageSql.updateBucket(sql, id, change.value));
        if (!updated.ok) return updated;
        return updated.value ? { ok: true, value: { message: 'Successfully updated' } } : { ok: false, error: bucketNotFound() };
      }
      case 'DELETE': {
        req.resume();
        const deleted = await this.asCaller(caller, (sql) => storageSql.deleteBucket(sql, id));
        if (!deleted.ok) return deleted;
        return deleted.value ? { ok: true, value: { message: 'Successfully deleted' } } : { ok: false, error: bucketNotFound() };
      }
      default:
        return null;
    }
  }

  private async listBuckets(caller: StorageCaller, query: URLSearchParams): Promise<Answer> {
    const limit = query.get('limit') === null ? 100 : Number(query.get('limit'));
    const offset = query.get('offset') === null ? 0 : Number(query.get('offset'));
    const column = query.get('sortColumn') ?? 'name';
    const order = (query.get('sortOrder') ?? 'asc').toLowerCase();
    const search = query.get('search') ?? '';
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000 || !Number.isInteger(offset) || offset < 0) return { ok: false, error: invalidRequest('limit must be 1 to 1000 and offset 0 or more') };
    if (!['id', 'name', 'created_at', 'updated_at'].includes(column) || (order !== 'asc' && order !== 'desc')) return { ok: false, error: invalidRequest('sortColumn must be id, name, created_at or updated_at; sortOrder asc or desc') };
    if (search.length > 200) return { ok: false, error: invalidRequest('search is at most 200 characters') };
    return this.asCaller(caller, (sql) => storageSql.listBuckets(sql, { limit, offset, column, order: order as 'asc' | 'desc', search }));
  }

  /** Deletes bytes whose metadata is gone (after the commit): a failure is logged, never the request's. */
  async deleteBytes(ref: string, versions: readonly string[]): Promise<void> {
    const keys = versions.flatMap((v) => (isVersion(v) ? [this.key(ref, v)] : []));
    if (keys.length === 0) return;
    await this.options.objects.delete(keys).catch((e: unknown) => (this.options.log ?? console.error)(e));
  }

  /** The path of `segments` (after the bucket) as a stored name, or its 400. */
  static pathOf(segments: readonly string[]): { ok: true; value: string } | { ok: false; error: StorageFailure } {
    return normaliseObjectPath(segments.join('/'));
  }
}

/** A version is a v4 uuid the service made; anything else in the column is never turned into a key. */
export function isVersion(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
}

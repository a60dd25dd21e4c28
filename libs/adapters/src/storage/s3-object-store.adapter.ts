import { createHash } from 'node:crypto';
import { CopyObjectCommand, DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException, type ServiceInputTypes, type ServiceOutputTypes } from '@aws-sdk/client-s3';
import { assertObjectKey, type ObjectStore, type StoredObject } from '@kiln/domain';
import type { BuildMiddleware } from '@smithy/types';

export interface S3ObjectStoreOptions {
  readonly bucket: string;
  /** The bucket's region (default us-east-1). */
  readonly region?: string;
  /** An S3-compatible server's origin (MinIO, R2, a local test server), or none for AWS. */
  readonly endpoint?: string | null;
  /** http://host/bucket/key addressing rather than http://bucket.host/key. */
  readonly forcePathStyle?: boolean;
  /** Static credentials, or none: the SDK's own chain (AWS_* variables, a profile, an instance role). */
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string } | null;
  /** Every object under `<keyPrefix>/` in the bucket (itself an object key), or none. */
  readonly keyPrefix?: string | null;
  /** Attempts per call, the first included (SDK default 3). */
  readonly maxAttempts?: number;
  /** How long connecting may take, and a whole request (defaults 5 s and 60 s). */
  readonly connectionTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  /** Keys per ListObjectsV2 page when deleting a prefix (S3's most and default: 1000; tests page smaller). */
  readonly listPageSize?: number;
  /** A client of the caller's own (tests observe its commands): the connection options above are then unused. */
  readonly client?: S3Client;
}

/** DeleteObjects takes at most 1000 keys per request. */
export const S3_DELETE_BATCH = 1000;
const CONTENT_TYPE_FALLBACK = 'application/octet-stream';

/**
 * ObjectStore in an S3 bucket (OBJECT_STORE=s3) through @aws-sdk/client-s3: PutObject (atomic in
 * S3: a reader sees the old object or the new one), GetObject, CopyObject (NoSuchKey → false),
 * DeleteObjects in batches of 1000, and a prefix deleted page by page (ListObjectsV2). Keys pass
 * assertObjectKey before any request; no SDK type leaves this class, and an SDK failure rejects
 * with an Error saying which operation failed (the API answers 503).
 */
export class S3ObjectStore implements ObjectStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly keyPrefix: string | null;
  private readonly listPageSize: number;

  constructor(options: S3ObjectStoreOptions) {
    this.bucket = options.bucket;
    this.keyPrefix = options.keyPrefix ? assertObjectKey(options.keyPrefix) : null;
    this.listPageSize = options.listPageSize ?? 1000;
    this.client = options.client ?? S3ObjectStore.makeClient(options);
  }

  private static makeClient(options: S3ObjectStoreOptions): S3Client {
    const thirdParty = Boolean(options.endpoint);
    const client = new S3Client({
      region: options.region ?? 'us-east-1',
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      ...(options.credentials ? { credentials: { accessKeyId: options.credentials.accessKeyId, secretAccessKey: options.credentials.secretAccessKey } } : {}),
      maxAttempts: options.maxAttempts ?? 3,
      requestHandler: { connectionTimeout: options.connectionTimeoutMs ?? 5_000, requestTimeout: options.requestTimeoutMs ?? 60_000 },
      // S3-compatible servers often refuse the SDK's newer default checksums (CRC32 on every
      // request): there, only where S3 requires one (DeleteObjects).
      ...(thirdParty ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } : {}),
    });
    if (thirdParty) contentMd5ForDeleteObjects(client);
    return client;
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const Key = this.full(key);
    await this.call('put', () => this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: bytes, ContentType: contentType, ContentLength: bytes.length })));
  }

  async get(key: string): Promise<StoredObject | null> {
    const Key = this.full(key);
    return this.call('get', async () => {
      try {
        const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key }));
        const bytes = answer.Body ? await answer.Body.transformToByteArray() : new Uint8Array(0);
        return { bytes, contentType: answer.ContentType ?? CONTENT_TYPE_FALLBACK };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    });
  }

  async copy(from: string, to: string): Promise<boolean> {
    const source = this.full(from);
    const Key = this.full(to);
    return this.call('copy', async () => {
      try {
        // The object's metadata (its content type) is copied with it (MetadataDirective COPY).
        await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key, CopySource: `${encodeURIComponent(this.bucket)}/${source.split('/').map(encodeURIComponent).join('/')}`, MetadataDirective: 'COPY' }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    });
  }

  async delete(keys: readonly string[]): Promise<void> {
    const full = keys.map((key) => this.full(key));
    await this.call('delete', () => this.deleteFull(full));
  }

  async deletePrefix(prefix: string): Promise<void> {
    const Prefix = `${this.full(prefix)}/`;
    await this.call('deletePrefix', async () => {
      let token: string | undefined;
      do {
        const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix, MaxKeys: this.listPageSize, ...(token ? { ContinuationToken: token } : {}) }));
        await this.deleteFull((page.Contents ?? []).flatMap((object) => (object.Key === undefined ? [] : [object.Key])));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    });
  }

  /** Closes the SDK's connections (tests; the API keeps one client for its life). */
  destroy(): void {
    this.client.destroy();
  }

  private async deleteFull(keys: readonly string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += S3_DELETE_BATCH) {
      const batch = keys.slice(start, start + S3_DELETE_BATCH);
      const answer = await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
      const failed = answer.Errors ?? [];
      if (failed.length > 0) throw new Error(`${failed.length} of ${batch.length} objects were not deleted (first: ${failed[0]?.Code ?? 'unknown'} ${failed[0]?.Message ?? ''})`.trim());
    }
  }

  /** The key in the bucket; throws InvalidObjectKey (before any request) for a key Kiln did not choose. */
  private full(key: string): string {
    assertObjectKey(key);
    return this.keyPrefix === null ? key : `${this.keyPrefix}/${key}`;
  }

  private async call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw new Error(`S3 ${operation} in bucket ${this.bucket} failed: ${describe(error)}`, { cause: error });
    }
  }
}

/**
 * DeleteObjects is the one call S3 requires a body checksum for, and the SDK now always sends
 * CRC32 there, which S3-compatible servers that predate it refuse ("Missing required header:
 * Content-MD5"). Off AWS, that request carries Content-MD5 instead (the SDK's documented fallback).
 */
export function contentMd5ForDeleteObjects(client: S3Client): void {
  const middleware: BuildMiddleware<ServiceInputTypes, ServiceOutputTypes> = (next, context) => async (args) => {
    const request = args.request as { headers?: Record<string, string>; body?: unknown } | undefined;
    if (context.commandName !== 'DeleteObjectsCommand' || request?.headers === undefined) return next(args);
    for (const header of Object.keys(request.headers)) {
      const lower = header.toLowerCase();
      if (lower.startsWith('x-amz-checksum-') || lower.startsWith('x-amz-sdk-checksum-')) delete request.headers[header];
    }
    if (typeof request.body === 'string' || request.body instanceof Uint8Array) {
      request.headers['content-md5'] = createHash('md5').update(request.body).digest('base64');
    }
    return next(args);
  };
  // Last in the build step: after the SDK's checksum middleware (which only some commands carry) has run.
  client.middlewareStack.add(middleware, { step: 'build', priority: 'low', name: 'kilnContentMd5ForDeleteObjects' });
}

function isMissing(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  // A missing bucket is a broken configuration, not a missing object.
  if (error.name === 'NoSuchBucket') return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
}

function describe(error: unknown): string {
  if (error instanceof S3ServiceException) return `${error.name} (HTTP ${error.$metadata.httpStatusCode ?? '?'})${error.message ? `: ${error.message}` : ''}`;
  if (error instanceof Error) return `${error.name}: ${error.message}${(error as NodeJS.ErrnoException).code ? ` (${(error as NodeJS.ErrnoException).code})` : ''}`;
  return String(error);
}

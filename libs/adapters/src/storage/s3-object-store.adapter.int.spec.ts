import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { InvalidObjectKey } from '@kiln/domain';
import { objectStoreContract } from '@kiln/domain/contracts';
import { S3ObjectStore, type S3ObjectStoreOptions } from './s3-object-store.adapter.js';
import { LOCAL_S3_CREDENTIALS, LocalS3Server } from './testing/local-s3-server.js';

const BUCKET = 'kiln-objects';
const text = (value: string) => new Uint8Array(Buffer.from(value));

/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const connection = (endpoint: string): S3ObjectStoreOptions => ({ bucket: BUCKET, endpoint, forcePathStyle: true, credentials: LOCAL_S3_CREDENTIALS });

/** Quick to give up: one attempt, short timeouts. */
const unreachableAt = async (): Promise<S3ObjectStore> =>
  new S3ObjectStore({ ...connection(`http://127.0.0.1:${await closedPort()}`), maxAttempts: 1, connectionTimeoutMs: 1000, requestTimeoutMs: 2000 });

for (const keyPrefix of [null, 'kiln/objects']) {
  objectStoreContract(`S3ObjectStore against s3rver${keyPrefix ? `, under the key prefix ${keyPrefix}` : ''}`, async () => {
    const server = await new LocalS3Server([BUCKET]).start();
    const store = new S3ObjectStore({ ...connection(server.endpoint), keyPrefix });
    const unreachable = await unreachableAt();
    return {
      store,
      unreachable,
      close: async () => {
        store.destroy();
        unreachable.destroy();
        await server.stop();
      },
    };
  });
}

describe('S3ObjectStore wire details', () => {
  let server: LocalS3Server;
  let raw: S3Client;
  let commands: string[];
  let store: S3ObjectStore;

  /** Every key in the bucket (all prefixes). */
  const bucketKeys = async (): Promise<string[]> => {
    const page = await raw.send(new ListObjectsV2Command({ Bucket: BUCKET }));
    return (page.Contents ?? []).map((o) => o.Key as string).sort();
  };

  beforeAll(async () => {
    server = await new LocalS3Server([BUCKET]).start();
    raw = new S3Client({ region: 'us-east-1', endpoint: server.endpoint, forcePathStyle: true, credentials: LOCAL_S3_CREDENTIALS });
    commands = [];
    raw.middlewareStack.add(
      (next, context) => async (args) => {
        commands.push(context.commandName as string);
        return next(args);
      },
      { step: 'initialize' },
    );
    store = new S3ObjectStore({ bucket: BUCKET, client: raw, keyPrefix: 'wire', listPageSize: 2 });
  });
  afterAll(async () => {
    raw.destroy();
    await server.stop();
  });

  it('keeps every object under the key prefix inside the bucket', async () => {
    await store.put('p/b/k', text('x'), 'image/png');
    expect(await bucketKeys()).toContain('wire/p/b/k');
    await store.delete(['p/b/k']);
  });

  it('deletes in batches of 1000 keys (one DeleteObjects per batch)', async () => {
    await store.put('batch/b/k0', text('0'), 'text/plain');
    await store.put('batch/b/k2499', text('2499'), 'text/plain');
    commands.length = 0;
    await store.delete(Array.from({ length: 2500 }, (_, i) => `batch/b/k${i}`));
    expect(commands).toEqual(['DeleteObjectsCommand', 'DeleteObjectsCommand', 'DeleteObjectsCommand']);
    expect(await store.get('batch/b/k0')).toBeNull();
    expect(await store.get('batch/b/k2499')).toBeNull();
    commands.length = 0;
    await store.delete([]);
    expect(commands).toEqual([]);
  });

  it('deletes a prefix page by page, and nothing beside it', async () => {
    for (let i = 0; i < 5; i++) await store.put(`pages/bucket/k${i}`, text(String(i)), 'text/plain');
    await store.put('pages/bucket2/keep', text('keep'), 'text/plain');
    await store.put('pages/bucket', text('the prefix itself'), 'text/plain');
    commands.length = 0;
    await store.deletePrefix('pages/bucket');
    // Five objects two to a page: three pages, each deleted before the next is read.
    expect(commands.filter((c) => c === 'ListObjectsV2Command')).toHaveLength(3);
    expect((await bucketKeys()).filter((k) => k.startsWith('wire/pages/'))).toEqual(['wire/pages/bucket', 'wire/pages/bucket2/keep']);
  });

  it('keeps the content type through a copy', async () => {
    await store.put('copy/b/src', text('<p>'), 'text/html; charset=utf-8');
    expect(await store.copy('copy/b/src', 'copy/b/dst')).toBe(true);
    expect(await store.get('copy/b/dst')).toEqual({ bytes: text('<p>'), contentType: 'text/html; charset=utf-8' });
  });

  it('refuses a bad key before sending anything', async () => {
    commands.length = 0;
    await expect(store.copy('ok/key', '../escape')).rejects.toBeInstanceOf(InvalidObjectKey);
    await expect(store.delete(['ok/key', 'A/B'])).rejects.toBeInstanceOf(InvalidObjectKey);
    expect(commands).toEqual([]);
    expect(() => new S3ObjectStore({ bucket: BUCKET, client: raw, keyPrefix: '../up' })).toThrow(InvalidObjectKey);
  });

  it('rejects, never answers "no object", when the bucket is missing', async () => {
    const missing = new S3ObjectStore({ bucket: 'no-such-bucket', client: raw });
    await expect(missing.get('p/b/k')).rejects.toThrow(/S3 get in bucket no-such-bucket failed: NoSuchBucket/);
    await expect(missing.copy('p/b/k', 'p/b/l')).rejects.toThrow(/NoSuchBucket/);
  });

  it('says which operation failed when the server cannot be reached, without the SDK types', async () => {
    const unreachable = await unreachableAt();
    try {
      await expect(unreachable.get('p/b/k')).rejects.toThrow(/^S3 get in bucket kiln-objects failed: /);
      await expect(unreachable.deletePrefix('p/b')).rejects.toThrow(/^S3 deletePrefix in bucket kiln-objects failed: /);
    } finally {
      unreachable.destroy();
    }
  });

  it('off AWS, sends DeleteObjects with the Content-MD5 of its body instead of the SDK\'s CRC32 (servers that predate it require MD5)', async () => {
    const seen: { url: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
    const recorder = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end('<?xml version="1.0" encoding="UTF-8"?><DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"></DeleteResult>');
      });
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    const { port } = recorder.address() as { port: number };
    const offAws = new S3ObjectStore({ ...connection(`http://127.0.0.1:${port}`), maxAttempts: 1 });
    try {
      await offAws.delete(['p/b/one', 'p/b/two']);
    } finally {
      offAws.destroy();
      await new Promise<void>((resolve) => recorder.close(() => resolve()));
    }
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request?.url).toMatch(/^\/kiln-objects\/?\?delete/);
    expect(request?.body.toString()).toContain('<Key>p/b/one</Key>');
    expect(request?.headers['content-md5']).toBe(createHash('md5').update(request?.body ?? '').digest('base64'));
    expect(Object.keys(request?.headers ?? {}).filter((h) => h.startsWith('x-amz-checksum-') || h.startsWith('x-amz-sdk-checksum-'))).toEqual([]);
  });
});

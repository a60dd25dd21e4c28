import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FilesystemObjectStore, S3ObjectStore } from '@kiln/adapters';
import { loadConfig } from '../config.js';
import { objectStoreFromConfig } from './object-store-from-config.js';

describe('objectStoreFromConfig', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kiln-store-config-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('builds the filesystem store under DATA_DIR/objects by default, and it keeps bytes there', async () => {
    const { store, description } = objectStoreFromConfig(loadConfig({ DATA_DIR: dir }).objectStore);
    expect(store).toBeInstanceOf(FilesystemObjectStore);
    expect(description).toBe(`filesystem under ${path.join(dir, 'objects')}`);
    await store.put('p/b/k', Uint8Array.of(1, 2, 3), 'image/png');
    expect(await store.get('p/b/k')).toEqual({ bytes: Uint8Array.of(1, 2, 3), contentType: 'image/png' });
    expect(await readdir(path.join(dir, 'objects', 'p', 'b'))).toEqual(['k~obj']);
  });

  it('uses OBJECT_STORE_DIR when set', async () => {
    const { store } = objectStoreFromConfig(loadConfig({ OBJECT_STORE_DIR: path.join(dir, 'elsewhere') }).objectStore);
    await store.put('x', Uint8Array.of(9), 'text/plain');
    expect(await readdir(path.join(dir, 'elsewhere'))).toEqual(['x~obj']);
  });

  it('builds the S3 store for OBJECT_STORE=s3, described by its region on AWS', () => {
    const { store, description } = objectStoreFromConfig(loadConfig({ OBJECT_STORE: 's3', S3_BUCKET: 'kiln-prod', S3_REGION: 'eu-west-3' }).objectStore);
    expect(store).toBeInstanceOf(S3ObjectStore);
    expect(description).toBe('S3 (AWS eu-west-3, bucket kiln-prod)');
    (store as S3ObjectStore).destroy();
  });
});

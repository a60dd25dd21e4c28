import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { S3ObjectStore } from '@kiln/adapters';
import { LOCAL_S3_CREDENTIALS, LocalS3Server } from '@kiln/adapters/testing';
import { loadConfig } from '../config.js';
import { objectStoreFromConfig } from './object-store-from-config.js';

describe('objectStoreFromConfig with OBJECT_STORE=s3, against a local S3 server', () => {
  let server: LocalS3Server;
  beforeAll(async () => {
    server = await new LocalS3Server(['kiln-config']).start();
  }, 30_000);
  afterAll(() => server.stop());

  it('builds the S3 store from every S3_* setting, and it reaches the bucket under the prefix', async () => {
    const env = {
      OBJECT_STORE: 's3',
      S3_BUCKET: 'kiln-config',
      S3_ENDPOINT: server.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: LOCAL_S3_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: LOCAL_S3_CREDENTIALS.secretAccessKey,
      S3_KEY_PREFIX: 'kiln',
    };
    const { store, description } = objectStoreFromConfig(loadConfig(env).objectStore);
    expect(store).toBeInstanceOf(S3ObjectStore);
    expect(description).toBe(`S3 (${server.endpoint}, bucket kiln-config, under kiln/)`);
    await store.put('p/b/k', Uint8Array.of(7), 'image/gif');
    expect(await store.get('p/b/k')).toEqual({ bytes: Uint8Array.of(7), contentType: 'image/gif' });
    // The prefix is where the settings said: a store without it does not see the object at p/b/k.
    const unprefixed = objectStoreFromConfig(loadConfig({ ...env, S3_KEY_PREFIX: '' }).objectStore).store;
    expect(await unprefixed.get('p/b/k')).toBeNull();
    expect(await unprefixed.get('kiln/p/b/k')).toEqual({ bytes: Uint8Array.of(7), contentType: 'image/gif' });
    (store as S3ObjectStore).destroy();
    (unprefixed as S3ObjectStore).destroy();
  });
});

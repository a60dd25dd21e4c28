import { describe, expect, it } from '@jest/globals';
import { parseObjectStoreConfig } from './object-store-config.js';

const parse = (env: Record<string, string>, dataDir = '.data') => {
  const problems: string[] = [];
  return { config: parseObjectStoreConfig(env, dataDir, (p) => problems.push(p)), problems };
};

const S3_MINIMAL = { OBJECT_STORE: 's3', S3_BUCKET: 'kiln-objects' };

describe('parseObjectStoreConfig (OBJECT_STORE, OBJECT_STORE_DIR, S3_*)', () => {
  it('is the filesystem under DATA_DIR/objects by default', () => {
    expect(parse({})).toEqual({ config: { kind: 'filesystem', dir: '.data/objects' }, problems: [] });
    expect(parse({}, '/var/lib/kiln').config).toEqual({ kind: 'filesystem', dir: '/var/lib/kiln/objects' });
  });

  it('takes OBJECT_STORE_DIR, and blank values as unset', () => {
    expect(parse({ OBJECT_STORE: 'filesystem', OBJECT_STORE_DIR: ' /srv/objects ' })).toEqual({ config: { kind: 'filesystem', dir: '/srv/objects' }, problems: [] });
    expect(parse({ OBJECT_STORE: ' ', OBJECT_STORE_DIR: '', S3_BUCKET: '  ' })).toEqual(parse({}));
  });

  it('reads every S3 setting', () => {
    const { config, problems } = parse({
      ...S3_MINIMAL,
      S3_REGION: 'eu-west-3',
      S3_ENDPOINT: 'http://127.0.0.1:9000/',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG',
      S3_KEY_PREFIX: 'kiln/objects/',
    });
    expect(problems).toEqual([]);
    expect(config).toEqual({
      kind: 's3',
      bucket: 'kiln-objects',
      region: 'eu-west-3',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG' },
      keyPrefix: 'kiln/objects',
    });
  });

  it('gives S3 its defaults: us-east-1, AWS itself, virtual-host style, the SDK credential chain, no prefix', () => {
    expect(parse(S3_MINIMAL)).toEqual({
      config: { kind: 's3', bucket: 'kiln-objects', region: 'us-east-1', endpoint: null, forcePathStyle: false, credentials: null, keyPrefix: null },
      problems: [],
    });
  });

  it.each([
    [{ OBJECT_STORE: 'gcs' }, 'OBJECT_STORE must be one of filesystem, s3, got "gcs"'],
    [{ OBJECT_STORE: 's3' }, 'S3_BUCKET is required when OBJECT_STORE is s3 (the bucket that holds the objects)'],
    [{ ...S3_MINIMAL, S3_BUCKET: 'My_Bucket' }, 'S3_BUCKET must be a bucket name (3-63 lower-case letters, digits, dots and hyphens), got "My_Bucket"'],
    [{ ...S3_MINIMAL, S3_BUCKET: '192.168.0.1' }, 'S3_BUCKET must be a bucket name (3-63 lower-case letters, digits, dots and hyphens), got "192.168.0.1"'],
    [{ ...S3_MINIMAL, S3_REGION: 'EU West' }, 'S3_REGION must be a region name such as us-east-1 (or auto), got "EU West"'],
    [{ ...S3_MINIMAL, S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT must be an http:// or https:// origin such as http://127.0.0.1:9000 (no credentials, query or fragment)'],
    [{ ...S3_MINIMAL, S3_ENDPOINT: 'http://key:secret@minio:9000' }, 'S3_ENDPOINT must be an http:// or https:// origin such as http://127.0.0.1:9000 (no credentials, query or fragment)'],
    [{ ...S3_MINIMAL, S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE must be true or false, got "yes"'],
    [{ ...S3_MINIMAL, S3_ACCESS_KEY_ID: 'AKIA' }, 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither (the AWS SDK then finds credentials itself)'],
    [{ ...S3_MINIMAL, S3_ACCESS_KEY_ID: 'AKIA', S3_SECRET_ACCESS_KEY: 'two words' }, 'S3_SECRET_ACCESS_KEY must not contain spaces or line breaks (check how it was pasted)'],
    [{ ...S3_MINIMAL, S3_KEY_PREFIX: '../Kiln' }, 'S3_KEY_PREFIX must be lower-case segments separated by / (letters, digits, - _ and inner dots), such as kiln/objects, got "../Kiln"'],
    [{ ...S3_MINIMAL, OBJECT_STORE_DIR: '/srv/objects' }, 'OBJECT_STORE_DIR is set but OBJECT_STORE is s3: unset it (objects live in S3_BUCKET)'],
    [{ S3_BUCKET: 'kiln-objects' }, 'S3_BUCKET is set but OBJECT_STORE is not s3: set OBJECT_STORE=s3, or unset it'],
    [{ S3_BUCKET: 'kiln-objects', S3_REGION: 'us-east-2' }, 'S3_BUCKET, S3_REGION are set but OBJECT_STORE is not s3: set OBJECT_STORE=s3, or unset them'],
  ])('refuses %j', (env, problem) => {
    expect(parse(env).problems).toEqual([problem]);
  });

  it('never echoes a secret in a problem', () => {
    const { problems } = parse({ ...S3_MINIMAL, S3_ENDPOINT: 'http://key:hunter2-secret@minio:9000', S3_ACCESS_KEY_ID: 'AKIA', S3_SECRET_ACCESS_KEY: 'hunter2 secret' });
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).not.toContain('hunter2');
  });
});

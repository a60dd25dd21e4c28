import path from 'node:path';
import { objectKeyError } from '@kiln/domain';

type Env = Readonly<Record<string, string | undefined>>;
type Report = (problem: string) => void;

/** Where file bytes live (issue 18; README "Configuration", docs/databases.md "Object storage"). */
export type ObjectStoreConfig =
  | {
      readonly kind: 'filesystem';
      /** OBJECT_STORE_DIR (default DATA_DIR/objects). */
      readonly dir: string;
    }
  | {
      readonly kind: 's3';
      /** S3_BUCKET (required). */
      readonly bucket: string;
      /** S3_REGION (default us-east-1). */
      readonly region: string;
      /** S3_ENDPOINT: an S3-compatible server (MinIO, R2, …), or null for AWS. */
      readonly endpoint: string | null;
      /** S3_FORCE_PATH_STYLE: http://host/bucket/key rather than http://bucket.host/key (default false). */
      readonly forcePathStyle: boolean;
      /** S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or null: the SDK's own chain (AWS_* variables, instance role). */
      readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | null;
      /** S3_KEY_PREFIX: every object under `<prefix>/` in the bucket (a bucket shared with other things), or null. */
      readonly keyPrefix: string | null;
    };

export const OBJECT_STORE_KINDS = ['filesystem', 's3'] as const;
export const DEFAULT_S3_REGION = 'us-east-1';
/** The variables only the s3 store reads: set with the filesystem store they are a mistake. */
const S3_VARIABLES = ['S3_BUCKET', 'S3_REGION', 'S3_ENDPOINT', 'S3_FORCE_PATH_STYLE', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_KEY_PREFIX'] as const;

/** S3's bucket naming rules (3–63 lower-case letters, digits, dots and hyphens; not an IP address). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION = /^[a-z0-9][a-z0-9-]{0,49}$/;

const blank = (raw: string | undefined): string | null => (raw === undefined || raw.trim() === '' ? null : raw.trim());

/** Reads OBJECT_STORE and its settings, reporting every problem (secrets are never echoed). */
export function parseObjectStoreConfig(env: Env, dataDir: string, report: Report): ObjectStoreConfig {
  const kind = blank(env['OBJECT_STORE']) ?? 'filesystem';
  const dirRaw = blank(env['OBJECT_STORE_DIR']);
  const filesystem: ObjectStoreConfig = { kind: 'filesystem', dir: dirRaw ?? path.join(dataDir, 'objects') };
  if (kind === 'filesystem') {
    const stray = S3_VARIABLES.filter((name) => blank(env[name]) !== null);
    if (stray.length > 0) report(`${stray.join(', ')} ${stray.length === 1 ? 'is' : 'are'} set but OBJECT_STORE is not s3: set OBJECT_STORE=s3, or unset ${stray.length === 1 ? 'it' : 'them'}`);
    return filesystem;
  }
  if (kind !== 's3') {
    report(`OBJECT_STORE must be one of ${OBJECT_STORE_KINDS.join(', ')}, got "${kind}"`);
    return filesystem;
  }
  if (dirRaw !== null) report('OBJECT_STORE_DIR is set but OBJECT_STORE is s3: unset it (objects live in S3_BUCKET)');

  const bucket = blank(env['S3_BUCKET']);
  if (bucket === null) report('S3_BUCKET is required when OBJECT_STORE is s3 (the bucket that holds the objects)');
  else if (!BUCKET.test(bucket) || bucket.includes('..') || /^\d+\.\d+\.\d+\.\d+$/.test(bucket)) {
    report(`S3_BUCKET must be a bucket name (3-63 lower-case letters, digits, dots and hyphens), got "${bucket}"`);
  }
  const region = blank(env['S3_REGION']) ?? DEFAULT_S3_REGION;
  if (!REGION.test(region)) report(`S3_REGION must be a region name such as us-east-1 (or auto), got "${region}"`);
  const endpoint = parseEndpoint(blank(env['S3_ENDPOINT']), report);
  const forcePathStyle = parseBoolean('S3_FORCE_PATH_STYLE', blank(env['S3_FORCE_PATH_STYLE']), report);
  const credentials = parseCredentials(blank(env['S3_ACCESS_KEY_ID']), blank(env['S3_SECRET_ACCESS_KEY']), report);
  const keyPrefix = blank(env['S3_KEY_PREFIX'])?.replace(/\/+$/, '') ?? null;
  if (keyPrefix !== null && objectKeyError(keyPrefix) !== null) {
    report(`S3_KEY_PREFIX must be lower-case segments separated by / (letters, digits, - _ and inner dots), such as kiln/objects, got "${keyPrefix.slice(0, 80)}"`);
  }
  return { kind: 's3', bucket: bucket ?? '', region, endpoint, forcePathStyle, credentials, keyPrefix };
}

function parseEndpoint(raw: string | null, report: Report): string | null {
  if (raw === null) return null;
  const problem = 'S3_ENDPOINT must be an http:// or https:// origin such as http://127.0.0.1:9000 (no credentials, query or fragment)';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    report(problem);
    return null;
  }
  // Credentials go in S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: a URL holding them is never echoed.
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '' || url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    report(problem);
    return null;
  }
  return raw.replace(/\/+$/, '');
}

function parseBoolean(name: string, raw: string | null, report: Report): boolean {
  if (raw === null || raw === 'false') return false;
  if (raw === 'true') return true;
  report(`${name} must be true or false, got "${raw}"`);
  return false;
}

function parseCredentials(accessKeyId: string | null, secretAccessKey: string | null, report: Report): { accessKeyId: string; secretAccessKey: string } | null {
  if (accessKeyId === null && secretAccessKey === null) return null;
  if (accessKeyId === null || secretAccessKey === null) {
    report('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither (the AWS SDK then finds credentials itself)');
    return null;
  }
  if (/\s/.test(accessKeyId)) report('S3_ACCESS_KEY_ID must not contain spaces or line breaks (check how it was pasted)');
  if (/\s/.test(secretAccessKey)) report('S3_SECRET_ACCESS_KEY must not contain spaces or line breaks (check how it was pasted)');
  return { accessKeyId, secretAccessKey };
}

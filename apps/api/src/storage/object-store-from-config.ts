import { FilesystemObjectStore, S3ObjectStore } from '@kiln/adapters';
import type { ObjectStore } from '@kiln/domain';
import type { ObjectStoreConfig } from './object-store-config.js';

/** The configured ObjectStore (main.ts passes it to createApp), and a line saying which for the start-up log. */
export function objectStoreFromConfig(config: ObjectStoreConfig): { store: ObjectStore; description: string } {
  if (config.kind === 'filesystem') return { store: new FilesystemObjectStore(config.dir), description: `filesystem under ${config.dir}` };
  const store = new S3ObjectStore({
    bucket: config.bucket,
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
    keyPrefix: config.keyPrefix,
  });
  const where = `${config.endpoint ?? `AWS ${config.region}`}, bucket ${config.bucket}${config.keyPrefix ? `, under ${config.keyPrefix}/` : ''}`;
  return { store, description: `S3 (${where})` };
}

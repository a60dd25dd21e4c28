import { FilesystemObjectStore } from '@kiln/adapters';
import type { ObjectStore } from '@kiln/domain';
import type { ObjectStoreConfig } from './object-store-config.js';

/** The configured ObjectStore (main.ts passes it to createApp), and a line saying which for the start-up log. */
export function objectStoreFromConfig(config: ObjectStoreConfig): { store: ObjectStore; description: string } {
  if (config.kind === 'filesystem') return { store: new FilesystemObjectStore(config.dir), description: `filesystem under ${config.dir}` };
  throw new Error('OBJECT_STORE=s3 is not available in this build');
}

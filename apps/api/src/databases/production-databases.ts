import type { Logger } from '@nestjs/common';
import { LocalPostgresProvisioner, NeonProvisioner, localSchemaMigrator, ownerSchemaMigrator } from '@kiln/adapters';
import type { AppConfig } from '../config.js';
import type { DatabaseAdapters } from './databases.module.js';

/**
 * The provisioner main.ts runs with: DATABASE_PROVIDER=local (default) makes project databases on
 * the PostgreSQL server Kiln itself uses (`adminUrl`: DATABASE_URL or the embedded server); `neon`
 * makes one Neon project per project database (NEON_API_KEY, NEON_API_URL).
 */
export function productionDatabases(config: AppConfig, adminUrl: string, log: Logger): DatabaseAdapters {
  const { neon } = config.databases;
  if (config.databases.provider === 'neon' && neon) {
    log.log(`Project databases: Neon (${new URL(neon.apiUrl).host})`);
    const provisioner = new NeonProvisioner({ apiKey: neon.apiKey, apiUrl: neon.apiUrl });
    return { provisioner, migrator: ownerSchemaMigrator((ref) => provisioner.ownerClient(ref)) };
  }
  const provisioner = new LocalPostgresProvisioner({ adminUrl });
  log.log('Project databases: on Kiln’s own PostgreSQL server (DATABASE_PROVIDER=local)');
  return { provisioner, migrator: localSchemaMigrator(adminUrl), close: () => provisioner.close() };
}

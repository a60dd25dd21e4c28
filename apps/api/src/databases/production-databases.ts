import type { Logger } from '@nestjs/common';
import {
  DataApiServer,
  type DataOriginService,
  LocalPostgresProvisioner,
  NeonProvisioner,
  PgAppAuthStores,
  PgChangeFeed,
  PgDataApi,
  PgRealtimeFanout,
  RealtimeServer,
  localSchemaMigrator,
  ownerSchemaMigrator,
} from '@kiln/adapters';
import type { DataApiQuota, DataApiTargets } from '@kiln/domain';
import type { AppConfig } from '../config.js';
import type { DatabaseAdapters } from './databases.module.js';

/**
 * The provisioner main.ts runs with: DATABASE_PROVIDER=local (default) makes project databases on
 * the PostgreSQL server Kiln itself uses (`adminUrl`: DATABASE_URL or the embedded server); `neon`
 * makes one Neon project per project database (NEON_API_KEY, NEON_API_URL).
 */
export function productionDatabases(config: AppConfig, adminUrl: string, log: Logger): DatabaseAdapters {
  const { neon } = config.databases;
  // The data API (`/rest/v1` on each project's data origin), one pool per project database.
  const api = new PgDataApi({ statementTimeoutMs: Math.max(config.databases.limits.free.statementTimeoutMs, config.databases.limits.paid.statementTimeoutMs) });
  const logError = (what: string) => (error: unknown) => log.error(`${what}: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
  // Realtime (`/realtime/v1/websocket`): broadcast and presence between API instances over
  // LISTEN/NOTIFY on Kiln's own database; postgres_changes re-read through the data API's pools.
  const fanout = new PgRealtimeFanout({ url: adminUrl, onError: logError('Realtime fan-out') });
  let realtime: RealtimeServer | null = null;
  const dataOrigin = (targets: DataApiTargets, services: readonly DataOriginService[], quota: DataApiQuota) => {
    realtime = new RealtimeServer({ targets, fanout, changes: new PgChangeFeed(api, logError('Realtime changes')), limits: config.databases.realtime, log: logError('Realtime') });
    return new DataApiServer(config.databases.dataUrlTemplate, targets, api, [...services, realtime], logError('Data API'), quota);
  };
  const closeRealtime = async () => (await (realtime as RealtimeServer | null)?.close(), await fanout.close());
  if (config.databases.provider === 'neon' && neon) {
    log.log(`Project databases: Neon (${new URL(neon.apiUrl).host})`);
    const provisioner = new NeonProvisioner({ apiKey: neon.apiKey, apiUrl: neon.apiUrl });
    // App users in each project database's `auth` schema, through its owner's login: the URI is
    // asked of Neon when a project's pool opens and is never stored (docs/databases.md "App sign-in").
    const appAuthStores = new PgAppAuthStores({ ownerUrl: (ref) => provisioner.ownerUrl(ref) });
    return {
      provisioner,
      migrator: ownerSchemaMigrator((ref) => provisioner.ownerClient(ref)),
      dataOrigin,
      appAuthStores,
      // Storage's metadata in each project database as the caller (docs/databases.md "Storage").
      storage: api,
      close: async () => (await closeRealtime(), await api.close(), await appAuthStores.close()),
    };
  }
  const provisioner = new LocalPostgresProvisioner({ adminUrl });
  // App users live in each project's own database, reached through the same admin connection (docs/decisions.md).
  const appAuthStores = new PgAppAuthStores({ adminUrl });
  log.log('Project databases: on Kiln’s own PostgreSQL server (DATABASE_PROVIDER=local)');
  return {
    provisioner,
    migrator: localSchemaMigrator(adminUrl),
    dataOrigin,
    appAuthStores,
    storage: api,
    close: async () => (await closeRealtime(), await api.close(), await appAuthStores.close(), await provisioner.close()),
  };
}

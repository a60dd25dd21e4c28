// The public entry point of @kiln/adapters: implementations of the domain's ports.
export * from './system/system-clock.adapter.js';
export * from './system/crypto-random.adapter.js';
export * from './system/uuid-ids.adapter.js';

// PostgreSQL
export * from './postgres/data-source.js';
export { isDatabaseUnavailable } from './postgres/database-unavailable.js';
export * from './postgres/schema.js';
export * from './postgres/pg-unit-of-work.js';
export { RecordNotFoundError } from './postgres/sql.js';
export * from './postgres/pg-profile-repository.adapter.js';
export * from './postgres/pg-project-repository.adapter.js';
export * from './postgres/pg-referral-codes.adapter.js';
export * from './postgres/pg-credit-ledger.adapter.js';
export * from './postgres/pg-mail-outbox.adapter.js';
export * from './postgres/pg-marketing-outbox.adapter.js';
export * from './postgres/pg-marketing-audience.adapter.js';
export * from './marketing/brevo-marketing-audience.adapter.js';
export * from './postgres/pg-processed-payment-events.adapter.js';
export * from './postgres/auth/pg-auth-user-repository.adapter.js';
export * from './postgres/auth/pg-one-time-code-store.adapter.js';
export * from './postgres/auth/pg-session-store.adapter.js';
export * from './postgres/auth/pg-factor-store.adapter.js';
export * from './mfa/otpauth-totp-code-generator.adapter.js';
export * from './mfa/qrcode-svg-renderer.adapter.js';
export * from './postgres/pg-vector-index.adapter.js';
export * from './postgres/pg-turn-repository.adapter.js';
export * from './postgres/pg-turn-undo-journal.adapter.js';
export * from './postgres/pg-local-checkout-store.adapter.js';
export * from './postgres/pg-rate-limiter.adapter.js';
export * from './postgres/pg-advisory-turn-lock.adapter.js';
export * from './postgres/pg-hosting-repository.adapter.js';
export * from './postgres/pg-analytics-event-store.adapter.js';
export * from './postgres/pg-attachment-repository.adapter.js';
export * from './postgres/embedded-postgres.js';
export * from './databases/local-postgres-provisioner.adapter.js';
export * from './databases/neon-provisioner.adapter.js';
export * from './databases/pg-schema-migrator.adapter.js';
export * from './databases/secret-box.js';
export * from './postgres/pg-project-database-repository.adapter.js';

// Mail
export * from './mail/smtp-mailer.adapter.js';

// Auth
export * from './auth/argon2-password-hasher.adapter.js';
export * from './auth/sha256-secret-hasher.adapter.js';
export * from './auth/jose-access-token.adapter.js';
export * from './auth/external-access-token-verifier.adapter.js';

// Payments
export * from './payments/stripe-payment-gateway.adapter.js';
export * from './payments/stripe-webhook-verifier.adapter.js';
export * from './payments/local-checkout-store.js';
export * from './payments/local-payment-gateway.adapter.js';

// Sandbox
export * from './sandbox/local-sandbox-host.adapter.js';
export * from './sandbox/container-sandbox-host.adapter.js';
export { readStarterFiles } from './sandbox/starter-files.js';
export { ProjectFiles, projectSize, type WriteFileOptions } from './sandbox/files/project-files.js';
export { DEV_SERVER_RUNNING_MESSAGE } from './sandbox/dev-servers.js';
export { openProjectZip, type ProjectZipOptions } from './archive/project-zip.js';
export { DEFAULT_IMPORT_MAX_BYTES, KEPT_ON_IMPORT, SandboxedGitImporter, type SandboxedGitImporterOptions } from './sandbox/repository/sandboxed-git-importer.js';
export { BubblewrapJail } from './sandbox/isolation/bubblewrap-jail.js';
export { DEFAULT_SANDBOX_LIMITS, type SandboxLimits, sandboxLimits } from './sandbox/isolation/sandbox-limits.js';
export type { IsolationStatus } from './sandbox/isolation/isolation-probe.js';
export type { ReleaseBuildOutput } from './sandbox/release-build.js';

// Hosting (published sites)
export * from './hosting/local-hosting-provider.adapter.js';
export { StaticSiteServer, type StaticSiteServerOptions } from './hosting/static-site-server.js';
export { DEFAULT_RELEASE_COPY_LIMITS, type ReleaseCopyLimits } from './hosting/release-copy.js';
export { isValidSiteHost } from './hosting/hosting-paths.js';

// AI (the offline generator, the default when no provider is configured, is @kiln/offline-assistant)
export * from './ai/ai-sdk/ai-sdk-assistant.adapter.js';
export * from './ai/ai-sdk/providers.js';

// Hosting: the production edge (Caddy), DNS, certificates, screenshots
export * from './hosting/node-dns-resolver.adapter.js';
export * from './hosting/caddy-edge.js';
export * from './hosting/caddy-certificate-authority.adapter.js';
export * from './hosting/no-tls-certificate-authority.adapter.js';
export * from './hosting/chromium-site-screenshotter.adapter.js';
// databases: the per-project data API (docs/databases.md, "Data API")
export { PgDataApi, type DataRequest, type DataAnswer, type RequestRole } from './databases/pg-data-api.js';
export { DataApiServer, DATA_API_LIMITS, type DataOriginService } from './databases/data-api-server.js';
export { DataApiTargetCache, TARGET_CACHE_MS } from './databases/data-api-target-cache.js';
export { DATA_API_FUNCTIONS_SQL, installDataApiFunctions } from './databases/data-api-functions.js';
export * from './databases/app-auth/hs256-app-token-signer.adapter.js';
export * from './databases/app-auth/pg-app-auth-stores.adapter.js';
export * from './geo/ipwhois-geo-locator.adapter.js';

// Object storage (issue 18): file bytes on the filesystem or in S3
export { FilesystemObjectStore } from './storage/filesystem-object-store.adapter.js';
export { S3_DELETE_BATCH, S3ObjectStore, type S3ObjectStoreOptions } from './storage/s3-object-store.adapter.js';
export { StorageService, type StorageServiceOptions, type StorageTransactions, type StorageQuotas } from './storage/storage-service.js';
export { SignedObjectTokens } from './storage/signed-object-tokens.js';
export { STORAGE_SCHEMA_SQL } from './storage/storage-schema-sql.js';
export * from './realtime/pg-realtime-fanout.js';
export * from './realtime/pg-change-feed.js';
export * from './realtime/realtime-server.js';

// @kiln/adapters/testing: helpers only tests use, kept out of the package's production entry.
export * from '../postgres/testing/test-database.js';
export * from '../postgres/testing/database-relay.js';
export * from '../mail/testing/fake-smtp-server.js';
export * from '../ai/ai-sdk/testing/fake-vendor-server.js';
export * from '../sandbox/testing/sandbox-test-dirs.js';
export * from '../hosting/testing/test-processes.js';
export * from '../hosting/testing/caddy-process.js';
export * from '../hosting/testing/pebble-process.js';
export * from '../hosting/testing/fake-dns.js';
export * from '../hosting/testing/edge-client.js';
export * from '../databases/testing/fake-neon-server.js';
export * from '../databases/testing/fake-neon-server.js';
export * from '../geo/testing/fake-ipwhois-server.js';
export * from '../marketing/testing/fake-brevo-server.js';
export * from './fake-git-server.js';
export * from '../storage/testing/local-s3-server.js';

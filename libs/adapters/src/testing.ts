// @kiln/adapters/testing: helpers only tests use, kept out of the package's production entry.
export * from './postgres/testing/database-relay.js';

// @kiln/offline-assistant/testing: helpers only tests use, kept out of the package's production entry.
export * from './drive-assistant.js';

// In-memory adapters and test doubles of the built-in auth's ports.
export * from './pure-sha256.js';
export * from './fake-password-hasher.js';
export * from './fake-access-token-signer.js';
export * from './in-memory-auth-user-repository.js';
export * from './in-memory-one-time-code-store.js';
export * from './in-memory-session-store.js';
export * from './in-memory-rate-limiter.js';
export * from './recording-mailer.js';
export * from './auth-test-kit.js';
export * from './in-memory-app-auth-stores.js';

// In-memory adapters and test doubles of the second-factor ports.
export * from './in-memory-factor-store.js';
export * from './fake-totp.js';
export * from './mfa-test-kit.js';

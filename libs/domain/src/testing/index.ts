// @kiln/domain/testing: in-memory adapters, test doubles and the port contract suites.
export * from './fixed-clock.js';
export * from './sequential-ids.js';
export * from './scripted-random.js';
export * from './in-memory-credit-ledger.js';
export * from './in-memory-profile-repository.js';
export * from './in-memory-project-repository.js';
export * from './in-memory-referral-codes.js';
export * from './in-memory-unit-of-work.js';
export * from './test-kit.js';
export * from './auth/index.js';
export * from './in-memory-payments.js';
export * from './payment-event-builders.js';
export * from './in-memory-sandbox-host.js';
export * from './in-memory-vector-index.js';
export * from './in-memory-turn-repository.js';
export * from './in-memory-turn-undo-journal.js';
export * from './assistant-stream-checks.js';

// @kiln/domain/contracts: one Jest suite per port, for every adapter's spec to call.
export * from './credit-ledger.contract.js';
export * from './profile-repository.contract.js';
export * from './project-repository.contract.js';
export * from './mailer-outbox.contract.js';
export * from './auth-user-repository.contract.js';
export * from './auth-one-time-code-store.contract.js';
export * from './auth-session-store.contract.js';
export * from './processed-payment-events.contract.js';
export * from './sandbox-host.contract.js';
export * from './vector-index.contract.js';
export * from './turn-repository.contract.js';
export * from './turn-undo-journal.contract.js';

// @kiln/domain/contracts: one Jest suite per port, for every adapter's spec to call.
export * from './credit-ledger.contract.js';

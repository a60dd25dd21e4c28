import { creditLedgerContract } from './contracts/credit-ledger.contract.js';
import { InMemoryCreditLedger } from './in-memory-credit-ledger.js';

let n = 0;
creditLedgerContract('in memory', async () => ({
  ledger: new InMemoryCreditLedger(() => Promise.resolve().then(() => undefined)),
  newAccount: async () => `account-${++n}`,
}));

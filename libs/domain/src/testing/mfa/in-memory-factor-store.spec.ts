import { factorStoreContract } from '../contracts/factor-store.contract.js';
import { SequentialIds } from '../sequential-ids.js';
import { InMemoryFactorStore } from './in-memory-factor-store.js';

// Each operation yields to the event loop first, so concurrent calls really interleave.
const yieldOnce = () => Promise.resolve().then(() => undefined);

factorStoreContract('in memory', async () => {
  const ids = new SequentialIds('factor');
  return { factors: new InMemoryFactorStore(yieldOnce), newId: () => ids.next(), newUserId: async () => ids.next() };
});

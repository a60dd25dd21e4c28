import { objectStoreContract } from './contracts/object-store.contract.js';
import { InMemoryObjectStore } from './in-memory-object-store.js';

objectStoreContract('InMemoryObjectStore', async () => {
  const unreachable = new InMemoryObjectStore();
  unreachable.down = true;
  return { store: new InMemoryObjectStore(), unreachable };
});

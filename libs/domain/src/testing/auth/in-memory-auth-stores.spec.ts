import { authUserRepositoryContract } from '../contracts/auth-user-repository.contract.js';
import { oneTimeCodeStoreContract } from '../contracts/auth-one-time-code-store.contract.js';
import { sessionStoreContract } from '../contracts/auth-session-store.contract.js';
import { SequentialIds } from '../sequential-ids.js';
import { InMemoryAuthUserRepository } from './in-memory-auth-user-repository.js';
import { InMemoryOneTimeCodeStore } from './in-memory-one-time-code-store.js';
import { InMemorySessionStore } from './in-memory-session-store.js';

// Each operation yields to the event loop first, so concurrent calls really interleave.
const yieldOnce = () => Promise.resolve().then(() => undefined);

authUserRepositoryContract('in memory', async () => {
  const ids = new SequentialIds('user');
  return { users: new InMemoryAuthUserRepository(yieldOnce), newId: () => ids.next() };
});

oneTimeCodeStoreContract('in memory', async () => {
  const ids = new SequentialIds('code');
  return { codes: new InMemoryOneTimeCodeStore(yieldOnce), newId: () => ids.next(), newUserId: async () => ids.next() };
});

sessionStoreContract('in memory', async () => {
  const ids = new SequentialIds('session');
  return { sessions: new InMemorySessionStore(yieldOnce), newId: () => ids.next(), newUserId: async () => ids.next() };
});

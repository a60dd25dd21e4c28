import { profileRepositoryContract } from './contracts/profile-repository.contract.js';
import { InMemoryProfileRepository } from './in-memory-profile-repository.js';

profileRepositoryContract('in memory', async () => ({
  profiles: new InMemoryProfileRepository(() => Promise.resolve().then(() => undefined)),
}));

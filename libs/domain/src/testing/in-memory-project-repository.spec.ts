import { projectRepositoryContract } from './contracts/project-repository.contract.js';
import { InMemoryProjectRepository } from './in-memory-project-repository.js';

let creators = 0;
projectRepositoryContract('in memory', async () => ({
  projects: new InMemoryProjectRepository(() => Promise.resolve().then(() => undefined)),
  newCreator: async () => `creator-${++creators}`,
}));

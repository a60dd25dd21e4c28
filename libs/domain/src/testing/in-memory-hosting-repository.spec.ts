import { hostingRepositoryContract } from './contracts/hosting-repository.contract.js';
import { InMemoryHostingRepository } from './in-memory-hosting-repository.js';

let projects = 0;
hostingRepositoryContract('InMemoryHostingRepository', async () => ({
  hosting: new InMemoryHostingRepository(() => Promise.resolve()),
  newProject: async () => `project-${(projects += 1)}`,
}));

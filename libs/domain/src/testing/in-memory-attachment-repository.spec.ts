import { attachmentRepositoryContract } from './contracts/attachment-repository.contract.js';
import { InMemoryAttachmentRepository } from './in-memory-attachment-repository.js';

let n = 0;
attachmentRepositoryContract('in memory', async () => ({
  repository: new InMemoryAttachmentRepository(),
  newProject: async () => ({ projectId: `project-${++n}`, userId: `user-${n}` }),
  newId: () => `attachment-${++n}`,
}));

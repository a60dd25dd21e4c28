import { turnRepositoryContract } from './contracts/turn-repository.contract.js';
import { InMemoryTurnRepository } from './in-memory-turn-repository.js';

turnRepositoryContract('InMemoryTurnRepository', async () => new InMemoryTurnRepository());

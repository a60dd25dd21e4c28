import type { UnitOfWork } from '../shared/unit-of-work.port.js';

/** In memory there is nothing to commit: the work just runs. */
export class InMemoryUnitOfWork implements UnitOfWork {
  run<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
}

/**
 * Runs work that writes through several ports as one transaction: all of it commits or none.
 * Adapters that share a database join the transaction opened here.
 */
export interface UnitOfWork {
  run<T>(work: () => Promise<T>): Promise<T>;
}

import { AsyncLocalStorage } from 'node:async_hooks';
import type { UnitOfWork } from '@kiln/domain';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * Transactions for the Pg adapters. `run` opens one (or joins the one already open in this
 * async context); every Pg adapter asks `manager()` for the EntityManager to use, which is the
 * open transaction's or, outside one, the DataSource's.
 *
 * `atomically` is for adapters whose one operation takes several statements (the ledger, the
 * referral record): its work commits or rolls back as a whole — as a transaction of its own, or
 * as a savepoint inside the caller's transaction, so a failed step undoes only that step and the
 * caller's transaction decides the rest.
 *
 * One transaction is one connection: work inside it must await its statements one after the
 * other (no Promise.all over adapters inside `run`).
 */
export class PgUnitOfWork implements UnitOfWork {
  private readonly current = new AsyncLocalStorage<EntityManager>();

  constructor(readonly dataSource: DataSource) {}

  /** The open transaction's manager, else the DataSource's (each statement on its own). */
  manager(): EntityManager {
    return this.current.getStore() ?? this.dataSource.manager;
  }

  inTransaction(): boolean {
    return this.current.getStore() !== undefined;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.current.getStore()) return work();
    return this.dataSource.transaction((manager) => this.current.run(manager, work));
  }

  /** Runs `work` all-or-nothing: in a new transaction, or in a savepoint of the open one. */
  atomically<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const outer = this.current.getStore() ?? this.dataSource.manager;
    // On a transactional manager TypeORM's transaction() issues SAVEPOINT / RELEASE / ROLLBACK TO.
    return outer.transaction((manager) => this.current.run(manager, () => work(manager)));
  }
}

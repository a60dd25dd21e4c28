import { type CodeError, type CodeErrorRecord, type ErrorScan, errorSeenAgain, markErrorSolved, markErrorSolving, newErrorRecord } from '@kiln/domain';
import { makeAutoObservable, observable } from 'mobx';
import type { Timers } from '../../../app/ports';
import type { Ids } from '../../../app/ui-ports';

/** Which record an error belongs to: the same place and the same words. */
export function errorKey(error: CodeError): string {
  return `${error.file}:${error.line}:${error.column}:${error.message}`;
}

/**
 * SPEC §3/§4 error records: each error the scans find, how often it was seen, whether the AI is
 * fixing it ("Fix with AI") and whether it is solved. An error being fixed is solved when a
 * later scan no longer has it; one that simply goes away is forgotten.
 */
export class ErrorRecordsStore {
  readonly records = observable.map<string, CodeErrorRecord>();

  constructor(
    private readonly ids: Ids,
    private readonly timers: Timers,
  ) {
    makeAutoObservable<ErrorRecordsStore, 'ids' | 'timers'>(this, { ids: false, timers: false, records: false }, { autoBind: true });
  }

  /** A new scan of the project (the Problems panel's check, or a turn's find-errors). */
  sync(scan: ErrorScan): void {
    const seen = new Set<string>();
    for (const error of scan.errors) {
      const key = errorKey(error);
      if (seen.has(key)) continue;
      seen.add(key);
      const record = this.records.get(key);
      if (record === undefined || record.solved) this.records.set(key, this.create(error));
      else this.records.set(key, errorSeenAgain(record));
    }
    for (const [key, record] of [...this.records]) {
      if (seen.has(key) || record.solved) continue;
      if (record.isSolving) this.records.set(key, markErrorSolved(record));
      else this.records.delete(key);
    }
  }

  recordFor(error: CodeError): CodeErrorRecord | undefined {
    return this.records.get(errorKey(error));
  }

  isSolving(error: CodeError): boolean {
    return this.recordFor(error)?.isSolving ?? false;
  }

  /** "Fix with AI" was asked for this error. */
  markSolving(error: CodeError): string {
    const key = errorKey(error);
    const record = this.records.get(key) ?? this.create(error);
    this.records.set(key, markErrorSolving(record));
    return key;
  }

  /** The turn that was fixing these ended and a scan still has them: nobody is fixing them now. */
  stopSolving(keys: readonly string[]): void {
    for (const key of keys) {
      const record = this.records.get(key);
      if (record !== undefined && record.isSolving) this.records.set(key, Object.freeze({ ...record, isSolving: false }));
    }
  }

  get solved(): readonly CodeErrorRecord[] {
    return [...this.records.values()].filter((r) => r.solved);
  }

  clear(): void {
    this.records.clear();
  }

  private create(error: CodeError): CodeErrorRecord {
    return newErrorRecord(error, { id: this.ids.next(), now: new Date(this.timers.now()) });
  }
}

import { type CodeError, EMPTY_ERROR_SCAN, type ErrorScan } from '@kiln/domain';
import { makeAutoObservable, runInAction } from 'mobx';
import type { Timers } from '../../app/ports';
import type { Logger } from '../../app/ui-ports';
import type { SandboxApi } from '../../api/sandbox.api';
import { scanFromDto } from './sandbox-setup';

/** 'src/App.tsx:12:5'. */
export function errorLocation(error: CodeError): string {
  return `${error.file}:${error.line}:${error.column}`;
}

/** How long file changes must settle before the Problems panel checks again on its own. */
export const AUTO_CHECK_DELAY_MS = 800;

/** What the panel says when the request for a check failed (the server was not reached). */
export const CHECK_REQUEST_FAILED = 'The check could not run just now. Try again in a moment.';

/**
 * The Problems panel: find-errors, listed with file:line:col and severity. It follows the project
 * on its own: every files-changed on the feed (a write, delete, restore, command or AI turn)
 * checks again once the changes settle (AUTO_CHECK_DELAY_MS after the last one), one check at a
 * time — a change during a check queues one more. A check that could not run (the server says
 * `unavailable`, or the request failed) says so and why; it is never "No problems found".
 */
export class ErrorsVm {
  scan: ErrorScan | null = null;
  checking = false;
  /** The last check's request failed (its zero counts mean nothing). */
  failed = false;
  private projectId = '';
  /** Bumped by every change (and project switch): a wait that is no longer the latest gives up. */
  private changes = 0;
  /** A change arrived while a check ran: check again after it. */
  private queued = false;

  constructor(
    private readonly api: SandboxApi,
    private readonly logger: Logger,
    private readonly timers: Pick<Timers, 'sleep'>,
  ) {
    makeAutoObservable<ErrorsVm, 'api' | 'logger' | 'timers' | 'projectId' | 'changes' | 'queued'>(
      this,
      { api: false, logger: false, timers: false, projectId: false, changes: false, queued: false },
      { autoBind: true },
    );
  }

  setProject(projectId: string): void {
    if (projectId !== this.projectId) {
      this.scan = null;
      this.failed = false;
    }
    this.projectId = projectId;
    this.changes += 1;
    this.queued = false;
  }

  /** The builder closed: waiting re-checks are dropped. */
  stop(): void {
    this.changes += 1;
    this.queued = false;
  }

  /** A scan that arrived another way (the setup's, an AI turn's). */
  setScan(scan: ErrorScan): void {
    this.scan = scan;
    this.failed = false;
  }

  get errorCount(): number {
    return this.scan?.errorCount ?? 0;
  }

  get warningCount(): number {
    return this.scan?.warningCount ?? 0;
  }

  /** Why the last check means nothing (it could not run), for people; null when it ran. */
  get notCheckedMessage(): string | null {
    if (this.failed) return CHECK_REQUEST_FAILED;
    const reason = this.scan?.unavailableReason;
    return reason === undefined ? null : `The check could not run: ${reason}`;
  }

  /** The counts are an answer: a check ran (show "N errors, M warnings"). */
  get hasCounts(): boolean {
    return this.scan !== null && this.notCheckedMessage === null;
  }

  /** A check ran and found nothing: the only case for "No problems found". */
  get noProblems(): boolean {
    return this.hasCounts && (this.scan?.errors.length ?? 0) === 0;
  }

  /** files-changed on the feed: check again once the changes settle. */
  onFilesChanged(): void {
    if (this.projectId === '') return;
    void this.checkAfterChanges();
  }

  private async checkAfterChanges(): Promise<void> {
    const change = ++this.changes;
    await this.timers.sleep(AUTO_CHECK_DELAY_MS);
    if (change !== this.changes) return; // a newer change waits its own delay
    if (this.checking) {
      this.queued = true;
      return;
    }
    await this.check();
  }

  /** "Check for errors" (and the automatic re-check): one at a time. */
  async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    const projectId = this.projectId;
    let scan: ErrorScan;
    let failed = false;
    try {
      scan = scanFromDto(await this.api.findErrors(projectId));
    } catch (error) {
      this.logger.warn('The error scan failed', error);
      scan = EMPTY_ERROR_SCAN; // SPEC §8's zero counts, shown as not checked (failed)
      failed = true;
    }
    runInAction(() => {
      this.checking = false;
      if (projectId !== this.projectId) return;
      this.scan = scan;
      this.failed = failed;
    });
    if (this.queued && projectId === this.projectId) {
      this.queued = false;
      void this.checkAfterChanges();
    }
  }
}

import { type CodeError, EMPTY_ERROR_SCAN, type ErrorScan } from '@kiln/domain';
import { makeAutoObservable, runInAction } from 'mobx';
import type { Logger } from '../../app/ui-ports';
import type { SandboxApi } from '../../api/sandbox.api';
import { scanFromDto } from './sandbox-setup';

/** 'src/App.tsx:12:5'. */
export function errorLocation(error: CodeError): string {
  return `${error.file}:${error.line}:${error.column}`;
}

/** "Check for errors": find-errors, listed with file:line:col and severity. SPEC §8: a failed scan counts zero. */
export class ErrorsVm {
  scan: ErrorScan | null = null;
  checking = false;
  /** The last check could not run (its zero counts mean nothing). */
  failed = false;
  private projectId = '';

  constructor(
    private readonly api: SandboxApi,
    private readonly logger: Logger,
  ) {
    makeAutoObservable<ErrorsVm, 'api' | 'logger' | 'projectId'>(this, { api: false, logger: false, projectId: false }, { autoBind: true });
  }

  setProject(projectId: string): void {
    if (projectId !== this.projectId) this.scan = null;
    this.projectId = projectId;
  }

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
      scan = EMPTY_ERROR_SCAN;
      failed = true;
    }
    runInAction(() => {
      this.checking = false;
      if (projectId !== this.projectId) return;
      this.scan = scan;
      this.failed = failed;
    });
  }
}

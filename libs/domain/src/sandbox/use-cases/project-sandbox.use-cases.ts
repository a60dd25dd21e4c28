import type { ProjectOwnership } from '../../projects/project-ownership.js';
import type { ProjectNotFound } from '../../projects/project.errors.js';
import { type ProblemLog, problemText } from '../../shared/problem-log.port.js';
import { ok, type Result } from '../../shared/result.js';
import { type ErrorScan, unavailableErrorScan, unavailableReasonOf } from '../error-scan.js';
import type { ProjectFilesChanged } from '../project-files-changed.port.js';
import type { SandboxDevServer, DevServerState } from '../sandbox-dev-server.port.js';
import type { SandboxDiagnostics } from '../sandbox-diagnostics.port.js';
import type { SandboxInfo, SandboxLifecycle, SandboxMachineState } from '../sandbox-lifecycle.port.js';
import { isSandboxMissing } from '../sandbox-missing.js';

/** The state shown when the host cannot tell the dev server's (the builder shows it as failed). */
export const DEV_SERVER_UNAVAILABLE: DevServerState = Object.freeze({ status: 'failed', socketPath: null, message: 'The dev server is not available' });
/** The state of a project before its sandbox exists (the realtime feed's first event). */
export const NO_SANDBOX_YET: DevServerState = Object.freeze({ status: 'stopped', socketPath: null, message: 'This project has no sandbox yet' });

/** What a project without a sandbox answers: rejected (SANDBOX.NOT_FOUND), or shown as stopped. */
export type WhenSandboxMissing = 'reject' | 'stopped';

/** The dev server's state, starting it; a host failure is DEV_SERVER_UNAVAILABLE (logged). */
async function devServerState(devServer: SandboxDevServer, problems: ProblemLog, projectId: string, missing: WhenSandboxMissing | 'unavailable'): Promise<DevServerState> {
  try {
    return await devServer.devServer(projectId);
  } catch (error) {
    if (isSandboxMissing(error) && missing === 'reject') throw error;
    if (isSandboxMissing(error) && missing === 'stopped') return NO_SANDBOX_YET;
    problems.warn(`The dev server state of ${projectId} failed: ${problemText(error)}`);
    return DEV_SERVER_UNAVAILABLE;
  }
}

export interface EnsuredSandbox {
  readonly info: SandboxInfo;
  readonly state: DevServerState;
}

/** Creates the project's sandbox when missing (SPEC §4 stage 1) and starts its dev server. */
export class EnsureSandbox {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly host: SandboxLifecycle & SandboxDevServer,
    private readonly changed: ProjectFilesChanged,
    private readonly problems: ProblemLog,
  ) {}

  async execute(userId: string, projectId: string): Promise<Result<EnsuredSandbox, ProjectNotFound>> {
    const found = await this.owned.find(userId, projectId);
    if (!found.ok) return found;
    const info = await this.host.ensure(projectId);
    if (info.machineCreated) this.changed.sandboxCreated(projectId);
    return ok({ info, state: await devServerState(this.host, this.problems, projectId, 'unavailable') });
  }
}

/** The dev server's state, starting it when stopped (SPEC §7 info; the realtime feed's first event). */
export class GetSandboxStatus {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly devServer: SandboxDevServer,
    private readonly problems: ProblemLog,
  ) {}

  async execute(userId: string, projectId: string, missing: WhenSandboxMissing): Promise<Result<DevServerState, ProjectNotFound>> {
    const found = await this.owned.find(userId, projectId);
    if (!found.ok) return found;
    return ok(await devServerState(this.devServer, this.problems, projectId, missing));
  }
}

/**
 * Where the project's sandbox machine stands (GET /api/fly/machine-status): the host's answer, or
 * null when the host cannot tell (logged; the site's status is still answered).
 */
export class GetSandboxMachine {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly lifecycle: SandboxLifecycle,
    private readonly problems: ProblemLog,
  ) {}

  async execute(userId: string, projectId: string): Promise<Result<SandboxMachineState | null, ProjectNotFound>> {
    const found = await this.owned.find(userId, projectId);
    if (!found.ok) return found;
    try {
      return ok(await this.lifecycle.machineState(projectId));
    } catch (error) {
      this.problems.warn(`The sandbox machine state of ${projectId} failed: ${problemText(error)}`);
      return ok(null);
    }
  }
}

/** Restarts the dev server, the live preview (SPEC §7 restart-dev); answers its new state. */
export class RestartDevServer {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly devServer: SandboxDevServer,
    private readonly problems: ProblemLog,
  ) {}

  async execute(userId: string, projectId: string): Promise<Result<DevServerState, ProjectNotFound>> {
    const found = await this.owned.find(userId, projectId);
    if (!found.ok) return found;
    await this.devServer.restartDev(projectId);
    return ok(await devServerState(this.devServer, this.problems, projectId, 'unavailable'));
  }
}

/** Removes the sandbox: dev server, files and history (SPEC §7 cleanup). */
export class RemoveSandbox {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly lifecycle: SandboxLifecycle,
    private readonly changed: ProjectFilesChanged,
  ) {}

  async execute(userId: string, projectId: string): Promise<Result<void, ProjectNotFound>> {
    const found = await this.owned.find(userId, projectId);
    if (!found.ok) return found;
    await this.lifecycle.cleanup(projectId);
    this.changed.sandboxRemoved(projectId);
    return ok(undefined);
  }
}

/**
 * Type-checks and lints the project (SPEC §7 find-errors). A scan that cannot run answers SPEC §8's
 * zero counts, marked as not checked with a reason safe to show (unavailableErrorScan), never as
 * "no problems"; the full failure goes to the ProblemLog.
 */
export class FindProjectErrors {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly diagnostics: SandboxDiagnostics,
    private readonly problems: ProblemLog,
  ) {}

  async execute(userId: string, projectId: string): Promise<Result<ErrorScan, ProjectNotFound>> {
    const found = await this.owned.find(userId, projectId);
    if (!found.ok) return found;
    try {
      return ok(await this.diagnostics.findErrors(projectId));
    } catch (error) {
      if (isSandboxMissing(error)) throw error;
      this.problems.warn(`find-errors failed for ${projectId}: ${problemText(error)}`);
      return ok(unavailableErrorScan(unavailableReasonOf(error)));
    }
  }
}

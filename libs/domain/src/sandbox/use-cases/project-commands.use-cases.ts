import type { ProjectOwnership } from '../../projects/project-ownership.js';
import type { AbortSignalLike } from '../../shared/abort-signal.js';
import { ok, type Result } from '../../shared/result.js';
import type { CommandFeed } from '../command-feed.port.js';
import type { ProjectFilesChanged } from '../project-files-changed.port.js';
import { classifyPackageCommand } from '../package-command.js';
import { type CommandResult, DEFAULT_COMMAND_TIMEOUT_SECONDS } from '../sandbox-commands.port.js';
import { resolveSandboxPath } from '../sandbox-path.js';
import { type ProjectCommandHost, runPackageCommand } from './package-install.js';
import type { SandboxFileError } from './project-files.use-cases.js';

/** A signal the domain can fire itself: a running command's Ctrl+C. */
class StopSignal implements AbortSignalLike {
  aborted = false;
  private readonly listeners = new Set<() => void>();

  addEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.add(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.delete(listener);
  }

  stop(): void {
    if (this.aborted) return;
    this.aborted = true;
    for (const listener of [...this.listeners]) listener();
  }
}

/**
 * The named commands running in this process, by project and command id, so the terminal's
 * Ctrl+C (InterruptProjectCommand) reaches the run that RunProjectCommand started.
 */
export class RunningCommands {
  private readonly running = new Map<string, StopSignal>();

  /** Registers a run; the returned signal fires when it is interrupted. A reused id replaces the older entry. */
  start(projectId: string, commandId: string): { readonly signal: AbortSignalLike; readonly stop: () => void; readonly done: () => void } {
    const key = keyOf(projectId, commandId);
    const signal = new StopSignal();
    this.running.set(key, signal);
    return {
      signal,
      stop: () => signal.stop(),
      done: () => {
        if (this.running.get(key) === signal) this.running.delete(key);
      },
    };
  }

  /** Interrupts the run; false when no run of that id is going on. */
  interrupt(projectId: string, commandId: string): boolean {
    const signal = this.running.get(keyOf(projectId, commandId));
    signal?.stop();
    return signal !== undefined;
  }

  get size(): number {
    return this.running.size;
  }
}

const keyOf = (projectId: string, commandId: string) => `${projectId}/${commandId}`;

export interface RunProjectCommandRequest {
  readonly userId: string;
  readonly projectId: string;
  readonly command: string;
  /** Names the run: its output streams to the CommandFeed and InterruptProjectCommand can stop it. */
  readonly commandId?: string;
  /** Default DEFAULT_COMMAND_TIMEOUT_SECONDS. */
  readonly timeoutSeconds?: number;
  /** Project-relative; default the root. */
  readonly workingDir?: string;
  /** The caller went away (a closed tab): the command stops. */
  readonly signal?: AbortSignalLike;
}

/**
 * Runs a command in the project's sandbox (SPEC §7 run-command, the terminal). A named run streams
 * its output and its end to the CommandFeed and can be interrupted. Afterwards anything may have
 * changed, so the builder reloads its tree and the index follows. A package install, add or
 * remove (`npm install dayjs`, `npm uninstall x`, a bare `npm ci`) is not run as a command: it
 * goes through package.json and the host's shared-cache install (runPackageCommand), and other
 * package-manager commands that would rewrite node_modules are refused (classifyPackageCommand).
 */
export class RunProjectCommand {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly commands: ProjectCommandHost,
    private readonly running: RunningCommands,
    private readonly feed: CommandFeed,
    private readonly changed: ProjectFilesChanged,
  ) {}

  async execute(request: RunProjectCommandRequest): Promise<Result<CommandResult, SandboxFileError>> {
    const { userId, projectId, commandId } = request;
    const found = await this.owned.find(userId, projectId);
    if (!found.ok) return found;
    const workingDir = resolveSandboxPath(request.workingDir ?? '.');
    if (!workingDir.ok) return workingDir;

    const packages = classifyPackageCommand(request.command);
    if (packages.kind !== 'other') {
      const onPackageOutput =
        commandId === undefined ? undefined : (stream: 'stdout' | 'stderr', text: string) => this.feed.output(projectId, commandId, stream, text);
      const result = await runPackageCommand(this.commands, projectId, packages, workingDir.value, onPackageOutput);
      if (commandId !== undefined) this.feed.exited(projectId, commandId, result);
      this.changed.filesChanged(projectId, { paths: [], reason: 'command' });
      return ok(result);
    }

    const run = commandId === undefined ? null : this.running.start(projectId, commandId);
    const onCallerGone = () => run?.stop();
    request.signal?.addEventListener('abort', onCallerGone);
    if (request.signal?.aborted === true) run?.stop();
    const onOutput =
      commandId === undefined ? undefined : (stream: 'stdout' | 'stderr', text: string) => this.feed.output(projectId, commandId, stream, text);
    let result: CommandResult;
    try {
      result = await this.commands.runCommand(projectId, request.command, {
        timeoutSeconds: request.timeoutSeconds ?? DEFAULT_COMMAND_TIMEOUT_SECONDS,
        workingDir: workingDir.value,
        onOutput,
        signal: run?.signal ?? request.signal,
      });
    } finally {
      request.signal?.removeEventListener('abort', onCallerGone);
      run?.done();
    }
    if (commandId !== undefined) this.feed.exited(projectId, commandId, result);
    this.changed.filesChanged(projectId, { paths: [], reason: 'command' });
    return ok(result);
  }
}

/** The terminal's Ctrl+C: stops a named run (it ends with exit code 130, interrupted). */
export class InterruptProjectCommand {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly running: RunningCommands,
  ) {}

  /** Whether a run of that id was going on. */
  async execute(userId: string, projectId: string, commandId: string): Promise<Result<boolean, SandboxFileError>> {
    const found = await this.owned.find(userId, projectId);
    if (!found.ok) return found;
    return ok(this.running.interrupt(projectId, commandId));
  }
}

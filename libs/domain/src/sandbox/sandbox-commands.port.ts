import type { AbortSignalLike } from '../shared/abort-signal.js';

/** SPEC §9: a sandbox command runs for at most 30 s unless told otherwise. */
export const DEFAULT_COMMAND_TIMEOUT_SECONDS = 30;
/** SPEC §7: commands run in the project root unless told otherwise. */
export const DEFAULT_WORKING_DIR = '.';

export interface RunCommandOptions {
  /** Default DEFAULT_COMMAND_TIMEOUT_SECONDS (30). */
  readonly timeoutSeconds?: number;
  /** Relative to the project root; default DEFAULT_WORKING_DIR ('.'). */
  readonly workingDir?: string;
  /** Called with output as it arrives (the terminal streams it); the result still holds all of it. */
  readonly onOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
  /** Aborting stops the command and everything it started (Ctrl+C in the terminal): exit code 130, `interrupted`. */
  readonly signal?: AbortSignalLike;
}

/** The exit code of a command stopped by its signal (128 + SIGINT, as a shell reports Ctrl+C). */
export const INTERRUPTED_EXIT_CODE = 130;

export interface CommandResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The command was stopped at the timeout; exitCode is then the host's (124), not the command's. */
  readonly timedOut: boolean;
  /** stdout or stderr went over the host's output cap and ends with a truncation marker. */
  readonly outputTruncated: boolean;
  /** Stopped through RunCommandOptions.signal; exitCode is then INTERRUPTED_EXIT_CODE. */
  readonly interrupted?: boolean;
}

/**
 * A command: a shell line (SPEC §7 run-command; the terminal) or an argument vector run without
 * any shell. A host without a sandboxed shell runs a line only when it is plain words.
 */
export type SandboxCommand = string | readonly string[];

/** Commands run in a project's sandbox (SPEC §7 run-command, the terminal). */
export interface SandboxCommands {
  /**
   * Runs a command in the project, with the timeout (killing everything it started), an output cap
   * and none of the host's secrets in its environment. A non-zero exit, a timeout or a command
   * the host cannot run (no sandboxed shell) is a result, not a rejection; a working folder
   * outside the project rejects as a refused path does (SANDBOX.PATH_OUTSIDE).
   */
  runCommand(sandboxId: string, command: SandboxCommand, options?: RunCommandOptions): Promise<CommandResult>;
}

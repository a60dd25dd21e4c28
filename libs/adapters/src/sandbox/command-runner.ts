import { type ChildProcess, spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { type CommandResult, INTERRUPTED_EXIT_CODE, type RunCommandOptions } from '@kiln/domain';
import { killProcessGroup } from './sandbox-processes.js';

/** Per stream; more is dropped and a marker appended. */
export const DEFAULT_OUTPUT_CAP_BYTES = 1024 * 1024;
/** Exit code reported for a command stopped at its timeout (as coreutils' `timeout`). */
export const TIMED_OUT_EXIT_CODE = 124;
/** Exit code for a command stopped by a sandbox limit (as a SIGKILL: 128 + 9). */
export const LIMIT_EXIT_CODE = 137;
/** Exit code for a command the host refuses to run (shell syntax without a sandboxed shell). */
export const NOT_RUNNABLE_EXIT_CODE = 126;

/**
 * Runs one process (already wrapped in its sandbox) in its own process group and collects its
 * output up to the cap: the whole group is killed at the timeout, on Ctrl+C (`abort`), when a
 * host limit fires, and when the process ends (background children do not outlive it).
 */
export function spawnCapped(
  file: string,
  args: readonly string[],
  {
    cwd,
    env,
    timeoutMs,
    outputCapBytes,
    onOutput,
    abort,
    limit,
    start,
  }: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    timeoutMs: number;
    /** Per stream; more is dropped and a marker appended. */
    outputCapBytes: number;
    onOutput?: RunCommandOptions['onOutput'];
    abort?: RunCommandOptions['signal'];
    /** A limit the host enforces: when it fires the command stops with `note` at the end of stderr. */
    limit?: { signal: AbortSignal; note: string };
    /** Starts the process somewhere else than a local child (a container); killed by its own means. */
    start?: () => ChildProcess;
  },
): Promise<CommandResult> {
  if (abort?.aborted === true) {
    return Promise.resolve({ exitCode: INTERRUPTED_EXIT_CODE, stdout: '', stderr: '[interrupted]\n', timedOut: false, outputTruncated: false, interrupted: true });
  }
  return new Promise((resolve) => {
    const child = start?.() ?? spawn(file, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout = new CappedBuffer(outputCapBytes, onOutput && ((text) => onOutput('stdout', text)));
    const stderr = new CappedBuffer(outputCapBytes, onOutput && ((text) => onOutput('stderr', text)));
    let timedOut = false;
    let settled = false;
    const killGroup = () => killProcessGroup(child);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
      // A process that left the group may still hold the pipes: stop reading them.
      setTimeout(() => finish(null, 'SIGKILL'), 500).unref();
    }, timeoutMs);
    let interrupted = false;
    let overLimit = false;
    // Stopped from outside (Ctrl+C, or a sandbox limit): the whole group goes, as at the timeout,
    // and the result says why.
    const stopWith = (mark: () => void) => () => {
      if (settled) return;
      mark();
      killGroup();
      setTimeout(() => finish(null, 'SIGKILL'), 500).unref();
    };
    const onAbort = stopWith(() => (interrupted = true));
    abort?.addEventListener('abort', onAbort);
    const onLimit = stopWith(() => (overLimit = true));
    limit?.signal.addEventListener('abort', onLimit);
    const finish = (code: number | null, signal: NodeJS.Signals | null, spawnError?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      abort?.removeEventListener('abort', onAbort);
      limit?.signal.removeEventListener('abort', onLimit);
      killGroup(); // background children of a finished command do not outlive it
      child.stdout?.destroy();
      child.stderr?.destroy();
      if (spawnError !== undefined) stderr.push(Buffer.from(`${spawnError.message}\n`));
      const exitCode = timedOut ? TIMED_OUT_EXIT_CODE : interrupted ? INTERRUPTED_EXIT_CODE : overLimit ? LIMIT_EXIT_CODE : spawnError !== undefined ? 127 : (code ?? (signal === null ? 1 : 128 + 9));
      const note = timedOut
        ? stderr.note(`[stopped after ${timeoutMs / 1000} s]\n`)
        : interrupted
          ? stderr.note('[interrupted]\n')
          : overLimit && limit !== undefined
            ? stderr.note(limit.note)
            : '';
      resolve({
        exitCode,
        stdout: stdout.text(),
        stderr: `${stderr.text()}${note}`,
        timedOut,
        outputTruncated: stdout.truncated || stderr.truncated,
        ...(interrupted ? { interrupted: true } : {}),
      });
    };
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (e) => finish(null, null, e));
    child.on('close', (code, signal) => finish(code, signal));
  });
}

/**
 * One output stream, kept up to the cap. `live` gets the kept text as it arrives (whole UTF-8
 * characters only), then the truncation marker once.
 */
class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly decoder = new StringDecoder('utf8');
  truncated = false;
  constructor(
    private readonly cap: number,
    private readonly live?: (text: string) => void,
  ) {}
  push(chunk: Buffer): void {
    const room = this.cap - this.size;
    if (room <= 0) {
      this.markTruncated();
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
    this.tell(this.decoder.write(kept));
    if (kept.length < chunk.length) this.markTruncated();
  }
  private markTruncated(): void {
    if (this.truncated) return;
    this.truncated = true;
    this.tell(`${this.decoder.end()}${this.marker()}`);
  }
  /** Text the host adds after the output (not counted against the cap); `live` gets it too. */
  note(text: string): string {
    this.tell(text);
    return text;
  }
  private marker(): string {
    return `\n[output truncated at ${this.cap} bytes]\n`;
  }
  private tell(text: string): void {
    if (text === '' || this.live === undefined) return;
    try {
      this.live(text);
    } catch {
      // a listener's failure never breaks the command
    }
  }
  /** Everything kept (and the marker when cut); `live` got the same text. */
  text(): string {
    const body = Buffer.concat(this.chunks).toString('utf8');
    if (!this.truncated) this.tell(this.decoder.end());
    return this.truncated ? `${body}${this.marker()}` : body;
  }
}

export function notRunnable(reason: string): CommandResult {
  return { exitCode: NOT_RUNNABLE_EXIT_CODE, stdout: '', stderr: `${reason}\n`, timedOut: false, outputTruncated: false };
}

/** Words of a plain command line ('ls -la src', quotes allowed); null when it needs a shell. */
export function splitPlainWords(line: string): string[] | null {
  if (/[|&;<>$`(){}*?[\]~!#\\\n]/.test(line)) return null;
  const words: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const m of line.matchAll(re)) words.push(m[1] ?? m[2] ?? m[3] ?? '');
  return words;
}

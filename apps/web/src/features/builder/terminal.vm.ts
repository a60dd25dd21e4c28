import { makeAutoObservable, runInAction } from 'mobx';
import { errorText } from '../../app/error-text';
import type { Timers } from '../../app/ports';
import type { Ids } from '../../app/ui-ports';
import type { CommandResultDto, SandboxApi } from '../../api/sandbox.api';

/** ANSI pieces the terminal writes. */
const CSI = '\x1b[';
const RESET = `${CSI}0m`;
const DIM = `${CSI}2m`;
const RED = `${CSI}31m`;
const GREEN = `${CSI}32m`;
const BOLD_GREEN = `${CSI}1;32m`;
export const PROMPT = `${BOLD_GREEN}$${RESET} `;
const CLEAR_SCREEN = `${CSI}2J${CSI}3J${CSI}H`;
const CLEAR_LINE = `\r${CSI}K`;

/** After run-command answers, how long to wait for the feed's command-exit before trusting the reply. */
export const EXIT_EVENT_GRACE_MS = 1500;
export const HISTORY_LIMIT = 100;

/** Keys as xterm reports them in onData. */
const KEY = {
  enter: '\r',
  backspace: '\x7f',
  ctrlH: '\b',
  ctrlC: '\x03',
  ctrlL: '\x0c',
  ctrlU: '\x15',
  up: `${CSI}A`,
  down: `${CSI}B`,
} as const;

/** Line ends as a terminal needs them (xterm moves down on \n but does not return). */
export function toTerminalText(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

interface RunningCommand {
  readonly id: string;
  readonly command: string;
  /** What the feed streamed so far, per stream. */
  streamed: { stdout: string; stderr: string };
  exited: boolean;
  /** The last output written ended its line (or there was none). */
  endsLine: boolean;
  /** Resolves when command-exit arrives. */
  readonly exit: Promise<void>;
  readonly resolveExit: () => void;
  /** Ctrl+C was pressed and the stop request is under way or done. */
  interrupting: boolean;
}

/**
 * The terminal panel's line discipline: the person types a line (backspace, Ctrl+C, Ctrl+U,
 * Ctrl+L, history with ↑/↓), Enter runs it with a fresh command_id; output streamed on the feed
 * under that id prints as it arrives, then the exit code. If the feed missed the output (it was
 * reconnecting), what run-command's reply holds beyond what was streamed is printed instead.
 * Everything written goes through the writer the xterm view attaches (queued until then).
 */
export class TerminalVm {
  line = '';
  running: { readonly id: string; readonly command: string } | null = null;
  lastExitCode: number | null = null;
  readonly history: string[] = [];

  private historyIndex: number | null = null;
  private current: RunningCommand | null = null;
  private writer: ((text: string) => void) | null = null;
  private pending: string[] = [];
  private projectId = '';
  private greeted = false;

  constructor(
    private readonly api: SandboxApi,
    private readonly ids: Ids,
    private readonly timers: Timers,
  ) {
    makeAutoObservable<TerminalVm, 'api' | 'ids' | 'timers' | 'historyIndex' | 'current' | 'writer' | 'pending' | 'projectId' | 'greeted'>(
      this,
      { api: false, ids: false, timers: false, historyIndex: false, current: false, writer: false, pending: false, projectId: false, greeted: false },
      { autoBind: true },
    );
  }

  setProject(projectId: string): void {
    this.projectId = projectId;
  }

  /** The xterm view is ready: everything written so far goes out, then live. Returns detach. */
  attach(writer: (text: string) => void): () => void {
    this.writer = writer;
    if (!this.greeted) {
      this.greeted = true;
      this.pending.unshift(`${DIM}Commands run in your project folder (timeout 30 s; Ctrl+C stops one).${RESET}\r\n${this.running ? '' : PROMPT + this.line}`);
    } else if (this.pending.length === 0 && this.running === null) {
      // A remounted view starts blank: show the prompt again.
      this.pending.push(PROMPT + this.line);
    }
    const queued = this.pending.join('');
    this.pending = [];
    if (queued !== '') writer(queued);
    return () => {
      if (this.writer === writer) this.writer = null;
    };
  }

  private write(text: string): void {
    if (this.writer === null) this.pending.push(text);
    else this.writer(text);
  }

  /** Keystrokes and pastes from xterm (onData). */
  input(data: string): void {
    if (this.running !== null) {
      // No input reaches a running command (run-command has no stdin); Ctrl+C stops it.
      if (data === KEY.ctrlC) void this.interrupt();
      return;
    }
    switch (data) {
      case KEY.up:
        return this.recall(-1);
      case KEY.down:
        return this.recall(1);
      case KEY.ctrlL:
        this.write(CLEAR_SCREEN + PROMPT + this.line);
        return;
      case KEY.ctrlU:
        this.line = '';
        this.write(CLEAR_LINE + PROMPT);
        return;
      case KEY.ctrlC:
        this.write('^C\r\n' + PROMPT);
        this.line = '';
        this.historyIndex = null;
        return;
    }
    if (data.startsWith(CSI) || data.startsWith('\x1bO')) return; // other cursor and function keys
    for (const char of data) {
      if (char === '\r' || char === '\n') {
        this.submit();
        if (this.running !== null) return; // the rest of a pasted block is not typed ahead
      } else if (char === KEY.backspace || char === KEY.ctrlH) {
        if (this.line.length > 0) {
          this.line = [...this.line].slice(0, -1).join('');
          this.write('\b \b');
        }
      } else if (char >= ' ' && char !== '\x7f') {
        this.line += char;
        this.write(char);
      }
    }
  }

  private recall(direction: -1 | 1): void {
    if (this.history.length === 0) return;
    const start = this.historyIndex ?? this.history.length;
    const next = Math.min(this.history.length, Math.max(0, start + direction));
    this.historyIndex = next === this.history.length ? null : next;
    this.line = this.historyIndex === null ? '' : (this.history[this.historyIndex] ?? '');
    this.write(CLEAR_LINE + PROMPT + this.line);
  }

  private submit(): void {
    const command = this.line.trim();
    this.line = '';
    this.historyIndex = null;
    this.write('\r\n');
    if (command === '') {
      this.write(PROMPT);
      return;
    }
    if (this.history.at(-1) !== command) this.history.push(command);
    if (this.history.length > HISTORY_LIMIT) this.history.splice(0, this.history.length - HISTORY_LIMIT);
    if (command === 'clear') {
      this.write(CLEAR_SCREEN + PROMPT);
      return;
    }
    void this.run(command);
  }

  /** Runs a command as if typed (also used by tests and, later, by buttons). */
  async run(command: string): Promise<void> {
    const id = this.ids.next();
    let resolveExit: () => void = () => undefined;
    const exit = new Promise<void>((resolve) => (resolveExit = resolve));
    const current: RunningCommand = { id, command, streamed: { stdout: '', stderr: '' }, exited: false, endsLine: true, exit, resolveExit, interrupting: false };
    this.current = current;
    this.running = { id, command };
    let result: CommandResultDto | null = null;
    let failure: unknown = null;
    try {
      result = await this.api.runCommand(this.projectId, { command, command_id: id });
    } catch (error) {
      failure = error;
    }
    if (result !== null && !current.exited) {
      // The reply can overtake the last streamed chunks: give the feed a moment to finish.
      await Promise.race([current.exit, this.timers.sleep(EXIT_EVENT_GRACE_MS)]);
    }
    runInAction(() => this.finish(current, result, failure));
  }

  /** Ctrl+C while a command runs: the server stops it and its reply ends the run (exit code 130). */
  async interrupt(): Promise<void> {
    const current = this.current;
    if (current === null || current.interrupting) return;
    current.interrupting = true;
    this.write(`${DIM}^C${RESET}\r\n`);
    try {
      const stopped = await this.api.interruptCommand(this.projectId, current.id);
      if (!stopped && this.current === current) this.write(`${DIM}(it was already ending)${RESET}\r\n`);
    } catch (error) {
      runInAction(() => {
        current.interrupting = false;
        this.write(`${RED}Could not stop the command: ${errorText(error)}${RESET}\r\n`);
      });
    }
  }

  private finish(current: RunningCommand, result: CommandResultDto | null, failure: unknown): void {
    if (this.current !== current) return;
    this.current = null;
    if (result !== null) {
      // Whatever the feed did not deliver (it was down, or the reply came first).
      this.writeOutput(current, 'stdout', missingOutput(current.streamed.stdout, result.stdout));
      this.writeOutput(current, 'stderr', missingOutput(current.streamed.stderr, result.stderr));
      if (!current.endsLine) this.write('\r\n');
      if (result.output_truncated) this.write(`${DIM}[output truncated]${RESET}\r\n`);
      if (result.timed_out) this.write(`${RED}[timed out]${RESET}\r\n`);
      const colour = result.exit_code === 0 ? GREEN : RED;
      this.write(`${colour}[exit code ${result.exit_code}]${RESET}\r\n`);
      this.lastExitCode = result.exit_code;
    } else {
      const message = failure instanceof Error ? failure.message : 'Request failed';
      this.write(`${RED}Could not run the command: ${message}${RESET}\r\n`);
      this.lastExitCode = null;
    }
    this.running = null;
    this.write(PROMPT);
  }

  /** command-output from the feed. */
  onOutput(data: { readonly command_id: string; readonly stream: 'stdout' | 'stderr'; readonly text: string }): void {
    const current = this.current;
    if (current === null || current.id !== data.command_id || current.exited) return;
    current.streamed[data.stream] += data.text;
    this.writeOutput(current, data.stream, data.text);
  }

  private writeOutput(current: RunningCommand, stream: 'stdout' | 'stderr', text: string): void {
    if (text === '') return;
    current.endsLine = text.endsWith('\n');
    this.write(stream === 'stderr' ? `${RED}${toTerminalText(text)}${RESET}` : toTerminalText(text));
  }

  /** command-exit from the feed: the stream for that command is complete. */
  onExit(data: { readonly command_id: string }): void {
    const current = this.current;
    if (current === null || current.id !== data.command_id) return;
    current.exited = true;
    current.resolveExit();
  }
}

/** The part of `full` not yet streamed: its suffix when the stream is a prefix of it, else nothing new. */
function missingOutput(streamed: string, full: string): string {
  if (streamed === '') return full;
  return full.startsWith(streamed) ? full.slice(streamed.length) : '';
}

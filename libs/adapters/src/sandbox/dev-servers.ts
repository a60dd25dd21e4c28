import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import path from 'node:path';
import type { DevServerState } from '@kiln/domain';
import { DEV_SERVER_READY_MARKER } from './error-output-parsers.js';
import { KeyedQueue } from './keyed-queue.js';
import { killProcessGroup } from './sandbox-processes.js';
import { CHECK_RESULT_MARKER, checkRequestLine, type WarmCheckMode } from './warm-checks.js';

/** What Kiln changed in a project from outside: paths written and removed, or 'all' (a restore, a move). */
export type FilesChanged = { readonly change?: readonly string[]; readonly unlink?: readonly string[] } | 'all';
/** The launcher's stdin line for it (runtime/vite-launcher.mjs). */
export const FILES_CHANGED_MARKER = 'KILN_FILES_CHANGED';

export function filesChangedLine(changed: FilesChanged): string {
  return `${FILES_CHANGED_MARKER} ${changed === 'all' ? '*' : Buffer.from(JSON.stringify({ change: changed.change ?? [], unlink: changed.unlink ?? [] })).toString('base64url')}\n`;
}

/** SPEC §8 wording for a reachable app. */
export const DEV_SERVER_RUNNING_MESSAGE = 'Website is running';
const TAIL_LINES = 30;
const TAIL_CHARS = 4000;
/**
 * After a failure, requests answer 'failed' for this long before trying again, doubling per failure
 * in a row: the preview's "starting" page reloads every second and must not relaunch a broken
 * project (a bad vite.config) each time. restartDev always tries at once.
 */
export const FAILED_RETRY_BASE_MS = 2000;
export const FAILED_RETRY_MAX_MS = 60_000;

export function failedRetryDelayMs(failuresInARow: number): number {
  return Math.min(FAILED_RETRY_MAX_MS, FAILED_RETRY_BASE_MS * 2 ** Math.max(0, failuresInARow - 1));
}

export interface DevServersOptions {
  /** A dev server nobody asked for during this long is stopped. */
  readonly idleStopMs: number;
  /** One that does not answer within this long is stopped and reported failed. */
  readonly startTimeoutMs: number;
  /**
   * Kiln's own folder (mode 0700, never visible in a sandbox) holding each dev server's Unix socket,
   * `<socketDir>/<sandboxId>.sock`: the only way to reach a dev server.
   */
  readonly socketDir: string;
  /**
   * Starts a sandbox's dev server serving on the listening Unix socket `listenFd` (passed to the
   * child as its fd 3; the server never binds anything itself). The child must lead its own process
   * group (spawned detached): stopping kills the group. stdout must carry the launcher's ready line.
   */
  readonly launch: (sandboxId: string, listenFd: number) => Promise<ChildProcess>;
  /**
   * Where the server listens is its own to make (a container: no socket can be handed over), at
   * `listenPath(sandboxId)`; once it says it serves, `publish` checks what is there and makes it
   * reachable at the sandbox's socket path. launch then gets -1 for `listenFd`. Unset: Kiln makes
   * the socket and hands it over.
   */
  readonly ownSocket?: {
    readonly publish: (sandboxId: string, socketPath: string) => Promise<void>;
  };
  /**
   * Tell a running server which files Kiln changed from outside (filesChanged): where its own
   * watcher cannot see them (a container under gVisor sees only changes made inside it). Called
   * with the sandbox first, to wake it (a paused container).
   */
  readonly announceChanges?: (sandboxId: string) => void;
  /**
   * A server started ahead of the sandbox (WarmDevServer), already listening on the sandbox's
   * socket path and waiting for `go` on stdin; null when there is none. Asked before launching.
   */
  readonly adopt?: (sandboxId: string) => ChildProcess | null;
  /** Every state change, in order. */
  readonly onChange: (sandboxId: string, state: DevServerState) => void;
  /** Milliseconds now (default Date.now); tests pass their own. */
  readonly now?: () => number;
}

interface Entry {
  state: DevServerState;
  child: ChildProcess | null;
  exited: Promise<void>;
  idleTimer: NodeJS.Timeout | null;
  startTimer: NodeJS.Timeout | null;
  tail: string[];
  /** Set when Kiln stops it, so its exit is not a failure. */
  stopping: boolean;
  /** Warm checks asked of it, by request id: each gets the answer's JSON, or null. */
  checks: Map<string, (answer: string | null) => void>;
}

const STOPPED: DevServerState = Object.freeze({ status: 'stopped', socketPath: null, message: 'Dev server stopped' });

/**
 * One dev server process per sandbox: started on demand on a Unix socket Kiln creates and hands to
 * it (so the sandbox needs no network and cannot choose where it listens), 'running' once the
 * launcher says it serves and the socket accepts connections, 'failed' (with the last lines it
 * printed) when it exits on its own, stopped after `idleStopMs` without a request, on restart, on
 * removal and on stopAll. Operations on one sandbox run one at a time.
 */
export class DevServers {
  private readonly entries = new Map<string, Entry>();
  private readonly locks = new KeyedQueue();
  /** Failures in a row per sandbox, and when the last one happened (for the retry back-off). */
  private readonly failures = new Map<string, { count: number; at: number }>();

  constructor(private readonly options: DevServersOptions) {}

  /** The state, starting the server when it is not starting or running; counts as activity. */
  request(sandboxId: string): Promise<DevServerState> {
    return this.serialised(sandboxId, async () => {
      const entry = this.entries.get(sandboxId);
      if (entry !== undefined && (entry.state.status === 'starting' || entry.state.status === 'running')) {
        this.armIdleTimer(sandboxId, entry);
        return entry.state;
      }
      const failed = this.failures.get(sandboxId);
      if (entry?.state.status === 'failed' && failed !== undefined && this.now() - failed.at < failedRetryDelayMs(failed.count)) {
        return entry.state;
      }
      return this.start(sandboxId);
    });
  }

  /** Whether the sandbox's server is starting or running (not counted as activity). */
  isActive(sandboxId: string): boolean {
    const status = this.entries.get(sandboxId)?.state.status;
    return status === 'starting' || status === 'running';
  }

  /**
   * The project's files changed (perhaps a fix): a failed server may be tried again at once. With
   * `announceChanges`, a running server is told what Kiln changed from outside (`all`: a restore).
   */
  filesChanged(sandboxId: string, changed?: FilesChanged): void {
    this.failures.delete(sandboxId);
    const stdin = this.entries.get(sandboxId)?.child?.stdin;
    const announce = this.options.announceChanges;
    if (announce === undefined || changed === undefined || stdin === null || stdin === undefined || !stdin.writable) return;
    announce(sandboxId);
    stdin.write(filesChangedLine(changed), () => undefined);
  }

  /**
   * A warm find-errors by the sandbox's running dev server (runtime/warm-checks.mjs; `changedPaths`:
   * what changed since the last passing build, for 'vouch'): the answer's JSON, unchecked; null when no server is running, or it exits or says nothing within `timeoutMs`.
   * Counts as activity.
   */
  askCheck(sandboxId: string, mode: WarmCheckMode, timeoutMs: number, changedPaths: readonly string[] = []): Promise<string | null> {
    const entry = this.entries.get(sandboxId);
    const stdin = entry?.child?.stdin;
    if (entry === undefined || entry.state.status !== 'running' || stdin === null || stdin === undefined || !stdin.writable) return Promise.resolve(null);
    this.armIdleTimer(sandboxId, entry);
    const id = randomBytes(12).toString('hex');
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(null), timeoutMs);
      timer.unref();
      const finish = (answer: string | null) => {
        clearTimeout(timer);
        entry.checks.delete(id);
        resolve(answer);
      };
      entry.checks.set(id, finish);
      stdin.write(checkRequestLine(id, mode, changedPaths), (error) => {
        if (error) finish(null);
      });
    });
  }

  restart(sandboxId: string): Promise<DevServerState> {
    return this.serialised(sandboxId, async () => {
      this.failures.delete(sandboxId);
      await this.stopNow(sandboxId, STOPPED);
      return this.start(sandboxId);
    });
  }

  /** Stops the server (if any) and forgets the sandbox. */
  remove(sandboxId: string): Promise<void> {
    return this.serialised(sandboxId, async () => {
      await this.stopNow(sandboxId, STOPPED);
      this.entries.delete(sandboxId);
      this.failures.delete(sandboxId);
    });
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((id) => this.serialised(id, () => this.stopNow(id, STOPPED))));
  }

  /** Where the sandbox's dev server is reached. */
  socketPathFor(sandboxId: string): string {
    return path.join(this.options.socketDir, `${sandboxId}.sock`);
  }

  private async start(sandboxId: string): Promise<DevServerState> {
    const socketPath = this.socketPathFor(sandboxId);
    let resolveExited: () => void = () => undefined;
    const entry: Entry = {
      state: { status: 'starting', socketPath, message: 'Starting the dev server' },
      child: null,
      exited: new Promise((resolve) => (resolveExited = resolve)),
      idleTimer: null,
      startTimer: null,
      tail: [],
      stopping: false,
      checks: new Map(),
    };
    this.entries.set(sandboxId, entry);
    this.changed(sandboxId, entry);

    const adopted = this.options.adopt?.(sandboxId) ?? null;
    let child: ChildProcess;
    if (adopted !== null) {
      child = adopted;
    } else {
      let listener: Server | null = null;
      try {
        if (this.options.ownSocket === undefined) listener = await listenOn(socketPath);
        child = await this.options.launch(sandboxId, listener === null ? -1 : (listener as unknown as { _handle: { fd: number } })._handle.fd);
      } catch (e) {
        resolveExited();
        this.fail(sandboxId, entry, `The dev server could not be started: ${e instanceof Error ? e.message : String(e)}`);
        return entry.state;
      } finally {
        // The child has its own copy of the socket; this process never accepts on it. (The socket
        // file was renamed after binding, so closing does not unlink it.)
        listener?.close();
      }
    }
    entry.child = child;
    trackGroup(child);
    // A write to a server that just exited (EPIPE) fails its check, never Kiln's process.
    child.stdin?.on('error', () => undefined);

    let ready = false;
    const onLine = (line: string) => {
      if (line.startsWith(`${CHECK_RESULT_MARKER} `)) {
        const [, id = '', ...rest] = line.split(' ');
        entry.checks.get(id)?.(rest.join(' '));
        entry.checks.delete(id);
        return;
      }
      remember(entry, line);
      if (!ready && line.startsWith(`${DEV_SERVER_READY_MARKER} `)) {
        ready = true;
        void this.confirmRunning(sandboxId, entry, socketPath);
      }
    };
    lines(child.stdout, onLine);
    lines(child.stderr, (line) => remember(entry, line));
    let gone = false;
    const onGone = (reason: string) => {
      if (gone) return;
      gone = true;
      untrackGroup(child);
      clearTimers(entry);
      for (const answer of entry.checks.values()) answer(null);
      entry.checks.clear();
      resolveExited();
      if (entry.stopping || this.entries.get(sandboxId) !== entry) return;
      const output = tailText(entry);
      this.fail(sandboxId, entry, `The dev server ${reason}${output === '' ? '' : `:\n${output}`}`);
    };
    child.once('error', (e) => {
      remember(entry, e.message);
      killGroup(child);
      onGone('could not be started');
    });
    child.once('close', (code, signal) => onGone(`stopped (${signal ?? `exit code ${code ?? '?'}`})`));

    entry.startTimer = setTimeout(() => {
      if (entry.state.status !== 'starting' || this.entries.get(sandboxId) !== entry) return;
      entry.stopping = true;
      killGroup(child);
      this.fail(sandboxId, entry, `The dev server did not start within ${Math.round(this.options.startTimeoutMs / 1000)} s:\n${tailText(entry)}`);
    }, this.options.startTimeoutMs);
    entry.startTimer.unref();
    this.armIdleTimer(sandboxId, entry);
    // Everything is listening: the warm server may read the project's files now.
    if (adopted !== null) adopted.stdin?.write('go\n');
    return entry.state;
  }

  private async confirmRunning(sandboxId: string, entry: Entry, socketPath: string): Promise<void> {
    if (this.options.ownSocket !== undefined) {
      try {
        await this.options.ownSocket.publish(sandboxId, socketPath);
      } catch (e) {
        if (this.entries.get(sandboxId) !== entry || entry.state.status !== 'starting') return;
        entry.stopping = true;
        if (entry.child !== null) killGroup(entry.child);
        this.fail(sandboxId, entry, `The dev server could not be reached: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
    }
    for (let i = 0; i < 20; i++) {
      if (this.entries.get(sandboxId) !== entry || entry.state.status !== 'starting') return;
      if (await socketAccepts(socketPath)) {
        if (this.entries.get(sandboxId) !== entry || entry.state.status !== 'starting') return;
        if (entry.startTimer !== null) clearTimeout(entry.startTimer);
        entry.state = { status: 'running', socketPath, message: DEV_SERVER_RUNNING_MESSAGE };
        this.failures.delete(sandboxId);
        this.armIdleTimer(sandboxId, entry); // idle time counts from when it can be used
        this.changed(sandboxId, entry);
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private fail(sandboxId: string, entry: Entry, message: string): void {
    clearTimers(entry);
    this.failures.set(sandboxId, { count: (this.failures.get(sandboxId)?.count ?? 0) + 1, at: this.now() });
    entry.state = { status: 'failed', socketPath: null, message };
    void rm(this.socketPathFor(sandboxId), { force: true });
    this.changed(sandboxId, entry);
  }

  private async stopNow(sandboxId: string, state: DevServerState): Promise<void> {
    const entry = this.entries.get(sandboxId);
    if (entry === undefined) return;
    clearTimers(entry);
    const wasActive = entry.state.status === 'starting' || entry.state.status === 'running';
    entry.stopping = true;
    if (entry.child !== null) {
      killGroup(entry.child);
      await Promise.race([entry.exited, new Promise((r) => setTimeout(r, 5000).unref())]);
    }
    await rm(this.socketPathFor(sandboxId), { force: true });
    if (wasActive) {
      entry.state = state;
      this.changed(sandboxId, entry);
    }
  }

  private armIdleTimer(sandboxId: string, entry: Entry): void {
    if (entry.idleTimer !== null) clearTimeout(entry.idleTimer);
    entry.idleTimer = setTimeout(() => {
      void this.serialised(sandboxId, async () => {
        if (this.entries.get(sandboxId) !== entry) return;
        const minutes = this.options.idleStopMs / 60_000;
        const idle = minutes >= 1 ? `${Math.round(minutes)} min` : `${Math.round(this.options.idleStopMs / 1000)} s`;
        await this.stopNow(sandboxId, { status: 'stopped', socketPath: null, message: `Stopped after ${idle} without activity` });
      });
    }, this.options.idleStopMs);
    entry.idleTimer.unref();
  }

  private changed(sandboxId: string, entry: Entry): void {
    this.options.onChange(sandboxId, entry.state);
  }

  private serialised<T>(sandboxId: string, work: () => Promise<T>): Promise<T> {
    return this.locks.run(sandboxId, work);
  }
}

function clearTimers(entry: Entry): void {
  if (entry.idleTimer !== null) clearTimeout(entry.idleTimer);
  if (entry.startTimer !== null) clearTimeout(entry.startTimer);
  entry.idleTimer = null;
  entry.startTimer = null;
}

function remember(entry: Entry, line: string): void {
  const clean = line.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '').trimEnd();
  if (clean === '' || clean.startsWith(`${DEV_SERVER_READY_MARKER} `)) return;
  entry.tail.push(clean);
  if (entry.tail.length > TAIL_LINES) entry.tail.shift();
}

function tailText(entry: Entry): string {
  const text = entry.tail.join('\n');
  return text.length > TAIL_CHARS ? `…${text.slice(-TAIL_CHARS)}` : text;
}

function lines(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  if (stream === null) return;
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf('\n')) !== -1) {
      onLine(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
    }
    if (pending.length > 64 * 1024) pending = pending.slice(-64 * 1024);
  });
  stream.on('end', () => {
    if (pending !== '') onLine(pending);
  });
}

// Process groups of every dev server this process started, killed if it exits without stopAll.
const liveGroups = new Set<number>();
let exitHookInstalled = false;

export function trackGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  liveGroups.add(child.pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const pid of liveGroups) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    });
  }
}

export function untrackGroup(child: ChildProcess): void {
  if (child.pid !== undefined) liveGroups.delete(child.pid);
}

/** The whole group: bubblewrap (whose sandbox dies with it) or the launcher and its children. */
export function killGroup(child: ChildProcess): void {
  killProcessGroup(child);
}

/**
 * A listening Unix socket at `socketPath`, bound under a temporary name and renamed into place, so
 * the path only ever names a socket Kiln made (and closing this process's handle, which unlinks the
 * name it bound, leaves the real one).
 */
export async function listenOn(socketPath: string): Promise<Server> {
  await mkdir(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  await rm(socketPath, { force: true });
  const temp = `${socketPath}.${randomBytes(4).toString('hex')}.tmp`;
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ path: temp, backlog: 511 }, () => resolve());
  });
  // Kiln's process never accepts on it (connections wait for the child).
  server.on('connection', (socket) => socket.destroy());
  await rename(temp, socketPath);
  return server;
}

/** Whether something accepts connections on the Unix socket. */
export function socketAccepts(socketPath: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ path: socketPath });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { PassThrough } from 'node:stream';
import type Dockerode from 'dockerode';
import { KILL_GROUP, type SandboxSpawnOptions } from '../sandbox-processes.js';

/** The supervisor inside Kiln's sandbox image (tools/sandbox-image/sandbox-supervisor.mjs). */
export const SUPERVISOR_PATH = '/kiln/sandbox-supervisor.mjs';
/** The image's unprivileged user, in group 0 so it may write the project's group-writable files. */
export const SANDBOX_USER = '10001:0';

/**
 * One exec in a sandbox's container, shaped as the detached ChildProcess the host's code expects:
 * stdout and stderr demultiplexed from Docker's stream, stdin passed on when asked for, 'exit' and
 * 'close' with the exec's exit code. Killing it closes the stream: the supervisor inside sees its
 * stdin end and kills the program's whole group (the Docker API cannot signal an exec).
 */
export class ContainerProcess extends EventEmitter {
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  readonly stdin: PassThrough | null;
  readonly pid: number | undefined = undefined;
  private stream: Duplex | null = null;
  private killed = false;
  private closed = false;

  constructor(
    container: Promise<Dockerode.Container>,
    argv: readonly string[],
    options: SandboxSpawnOptions,
    /** Told once, when the process has ended (the container's idle accounting). */
    private readonly onEnd: () => void,
  ) {
    super();
    this.stdin = options.stdin === 'pipe' ? new PassThrough() : null;
    void this.start(container, argv, options).catch((e: unknown) => {
      if (this.closed) return;
      this.emit('error', e instanceof Error ? e : new Error(String(e)));
      this.finish(null, null);
    });
  }

  [KILL_GROUP](): void {
    if (this.closed || this.killed) return;
    this.killed = true;
    this.stream?.destroy();
    if (this.stream === null) this.finish(null, 'SIGKILL');
  }

  /** A ChildProcess to the code that spawns and watches sandboxed processes. */
  asChild(): ChildProcess {
    return this as unknown as ChildProcess;
  }

  private async start(containerPromise: Promise<Dockerode.Container>, argv: readonly string[], options: SandboxSpawnOptions): Promise<void> {
    const container = await containerPromise;
    if (this.killed) return this.finish(null, 'SIGKILL');
    const exec = await container.exec({
      Cmd: ['node', SUPERVISOR_PATH, ...(options.stdin === 'pipe' ? ['--stdin'] : []), '--', ...argv],
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
      User: SANDBOX_USER,
      WorkingDir: options.cwd,
      Env: Object.entries(options.env).flatMap(([name, value]) => (value === undefined ? [] : [`${name}=${value}`])),
    });
    const stream = (await exec.start({ hijack: true, stdin: true })) as Duplex;
    this.stream = stream;
    if (this.killed) {
      stream.destroy();
      return this.finish(null, 'SIGKILL');
    }
    container.modem.demuxStream(stream, this.stdout, this.stderr);
    this.stdin?.pipe(stream);
    stream.on('error', () => undefined);
    // The output's end is the program's end (the supervisor kills its group first); the stream
    // may stay half open while Kiln's side still writes.
    let ended = false;
    const onEnd = () => {
      if (ended) return;
      ended = true;
      stream.destroy();
      if (this.killed) return this.finish(null, 'SIGKILL');
      exec.inspect().then(
        (info) => this.finish(info.ExitCode ?? null, info.ExitCode === null ? 'SIGKILL' : null),
        () => this.finish(null, 'SIGKILL'),
      );
    };
    stream.once('end', onEnd);
    stream.once('close', onEnd);
  }

  private finish(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.closed) return;
    this.closed = true;
    this.onEnd();
    this.stdout.end();
    this.stderr.end();
    // After the output's last chunks reached their listeners (a PassThrough passes them on later).
    setImmediate(() => {
      this.emit('exit', code, signal);
      this.emit('close', code, signal);
    });
  }
}

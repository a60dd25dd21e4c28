import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { accessSync, constants } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The edge's int specs need Debian's `caddy` and `pebble` (with `pebble-challtestsrv`): a missing
 * one fails the spec with how to install it, never a silent skip.
 */
export function requireBinaries(...names: string[]): void {
  const missing = names.filter((name) => !executable(`/usr/bin/${name}`) && !onPath(name));
  if (missing.length > 0) {
    throw new Error(`Missing ${missing.join(', ')}: install them with \`apt-get install -y caddy pebble\` (Debian 12; .ci/run installs them).`);
  }
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A port free for both TCP and UDP on 127.0.0.1 (the fake DNS server listens on both). */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const port = await new Promise<number>((resolve, reject) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const address = probe.address();
        const p = typeof address === 'object' && address ? address.port : 0;
        probe.close(() => resolve(p));
      });
    });
    const udpFree = await new Promise<boolean>((resolve) => {
      const socket = createSocket('udp4');
      socket.once('error', () => resolve(false));
      socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
    });
    if (udpFree) return port;
  }
  throw new Error('No free port');
}

/** A child process whose output is kept (for the failure message) and that `stop` always ends. */
export class TestProcess {
  private output = '';
  private exited: Promise<void>;
  private readonly child: ChildProcess;

  constructor(
    readonly label: string,
    command: string,
    args: readonly string[],
    env: NodeJS.ProcessEnv = {},
    cwd?: string,
  ) {
    this.child = spawn(command, [...args], { env: { PATH: process.env.PATH, ...env }, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString('utf8')).slice(-20_000);
    };
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
    this.child.once('error', (error) => keep(Buffer.from(`spawn error: ${error.message}\n`)));
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The last lines it printed: attached to errors so a failing spec says why. */
  tail(lines = 30): string {
    return `--- ${this.label} ---\n${this.output.split('\n').slice(-lines).join('\n')}`;
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const killed = await Promise.race([this.exited.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 3000)))]);
    clearTimeout(timer);
    if (!killed) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }
}

/** Polls until `probe` resolves truthy; fails with the process's output after `timeoutMs`. */
export async function waitUntil(what: string, probe: () => Promise<boolean>, processes: readonly TestProcess[], timeoutMs = 15_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    const dead = processes.find((p) => !p.running);
    if (dead || performance.now() > until) {
      throw new Error(`${dead ? `${dead.label} exited` : 'Timed out'} waiting for ${what}\n${processes.map((p) => p.tail()).join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

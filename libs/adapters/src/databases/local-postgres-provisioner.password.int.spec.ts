import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type DatabaseConnection, generateDatabaseRef } from '@kiln/domain';
import { SeededRandom } from '@kiln/domain/testing';
import pg from 'pg';
import { LocalPostgresProvisioner } from './local-postgres-provisioner.adapter.js';

const BIN = '/usr/lib/postgresql/15/bin';
// The shared test server trusts every local login, so passwords are proven on a throwaway server
// that asks for them (scram-sha-256), built from the installed binaries as NOTES.md describes.
const canRun = existsSync(`${BIN}/initdb`) && process.getuid?.() === 0;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

(canRun ? describe : describe.skip)('LocalPostgresProvisioner on a server that checks passwords (scram-sha-256)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kiln-scram-'));
  const data = join(dir, 'data');
  const adminPassword = randomBytes(12).toString('hex');
  const random = new SeededRandom(4242);
  let port = 0;
  let provisioner: LocalPostgresProvisioner;
  let x: DatabaseConnection;
  let y: DatabaseConnection;
  const asPostgres = (args: string[]) => execFileSync('runuser', ['-u', 'postgres', '--', ...args], { stdio: 'pipe' });

  beforeAll(async () => {
    chownSync(dir, 101, 104);
    const pwfile = join(dir, 'pw');
    writeFileSync(pwfile, adminPassword, { mode: 0o600 });
    chownSync(pwfile, 101, 104);
    asPostgres([`${BIN}/initdb`, '-D', data, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8', '--locale=C.UTF-8']);
    port = await freePort();
    asPostgres([`${BIN}/pg_ctl`, '-D', data, '-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, '-w', 'start']);
    provisioner = new LocalPostgresProvisioner({ adminUrl: `postgres://postgres:${adminPassword}@127.0.0.1:${port}/postgres` });
    const limits = { sizeMb: 10, connections: 2, statementTimeoutMs: 1000 };
    x = await provisioner.provision(generateDatabaseRef(random), limits);
    y = await provisioner.provision(generateDatabaseRef(random), limits);
  }, 60_000);

  afterAll(async () => {
    await provisioner?.close();
    try {
      asPostgres([`${BIN}/pg_ctl`, '-D', data, '-m', 'immediate', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  const login = async (c: DatabaseConnection, overrides: Partial<{ password: string; database: string; user: string }> = {}) => {
    const client = new pg.Client({ host: '127.0.0.1', port, user: c.user, password: c.password, database: c.database, ...overrides });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.end();
      return 'connected';
    } catch (error) {
      return (error as { code?: string }).code ?? (error as Error).message;
    }
  };

  it('lets an authenticator in with its own password to its own database only', async () => {
    expect(await login(x)).toBe('connected');
    expect(await login(x, { password: 'wrong' })).toBe('28P01');
    expect(await login(x, { password: y.password })).toBe('28P01');
    expect(await login(x, { database: y.database })).toBe('42501');
    expect(await login(x, { database: 'postgres' })).toBe('42501');
    expect(await login(x, { database: 'template1' })).toBe('42501');
    expect(await login(y, { user: 'postgres' })).toBe('28P01');
  });

  it('gives a new password on each provisioning (the old one stops working)', async () => {
    const ref = y.user.replace(/^kiln_app_|_authenticator$/g, '');
    const again = await provisioner.provision(ref, { sizeMb: 10, connections: 2, statementTimeoutMs: 1000 });
    expect(again.password).not.toBe(y.password);
    expect(await login(again)).toBe('connected');
    expect(await login(y)).toBe('28P01');
  });
});

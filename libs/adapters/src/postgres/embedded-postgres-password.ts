import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { readOrCreateSecretFile } from '../system/secret-file.js';

/**
 * The password data directories made before passwords were generated (every one of them had
 * it). Only ever used to log in once and replace it with the stored random password.
 */
export const LEGACY_EMBEDDED_PASSWORD = 'kiln';

/** `${dataDir}/secrets/postgres-password`: the embedded server's superuser password (0600, folder 0700). */
export function embeddedPasswordFile(dataDir: string): string {
  return path.resolve(dataDir, 'secrets', 'postgres-password');
}

/**
 * The stored password, or a new random one (32 bytes, base64url) stored first (readOrCreateSecretFile:
 * processes starting together agree on one, nobody reads half a file, 0600 in a 0700 folder).
 */
export function loadOrCreateEmbeddedPassword(dataDir: string): Promise<string> {
  const file = embeddedPasswordFile(dataDir);
  return readOrCreateSecretFile(file, () => `${randomBytes(32).toString('base64url')}\n`, (text) => {
    const password = text.trim();
    if (password.length < 16) throw new Error(`Embedded PostgreSQL: ${file} holds no usable password (delete it only if the cluster still has the old default)`);
    return password;
  });
}

/**
 * A client logged in as `user` with `password`. A cluster that still has the legacy password
 * (made before passwords were generated, or a start that stopped between storing the new
 * password and setting it) is logged into with that one, and its password is changed to
 * `password` first — after which the legacy one is refused.
 */
export async function connectWithStoredPassword(options: { port: number; user: string; password: string; onLog: (line: string) => void }): Promise<pg.Client> {
  const { port, user, password } = options;
  const connect = async (secret: string): Promise<pg.Client> => {
    const client = new pg.Client({ host: '127.0.0.1', port, user, password: secret, database: 'postgres' });
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  };
  try {
    return await connect(password);
  } catch (error) {
    if (!isWrongPassword(error)) throw error;
  }
  let legacy: pg.Client;
  try {
    legacy = await connect(LEGACY_EMBEDDED_PASSWORD);
  } catch (error) {
    if (!isWrongPassword(error)) throw error;
    throw new Error(
      'Embedded PostgreSQL refused the stored password (secrets/postgres-password in the data directory) and the old default: ' +
        'the file does not belong to this cluster. Restore the right file, or move the postgres folder aside to start afresh.',
      { cause: error },
    );
  }
  try {
    await legacy.query(`ALTER ROLE ${legacy.escapeIdentifier(user)} PASSWORD ${legacy.escapeLiteral(password)}`);
  } finally {
    await legacy.end();
  }
  options.onLog('Embedded PostgreSQL: replaced the old default password with the generated one (secrets/postgres-password)');
  return connect(password);
}

/** 28P01 invalid_password (a role without a password gives the same code). */
function isWrongPassword(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '28P01';
}

/**
 * Refuses a cluster whose pg_hba.conf lets anyone in without a password (`trust`) — the server
 * listens on loopback, where every local process, sandboxes included, could otherwise connect.
 */
export async function assertNoTrustAuthentication(databaseDir: string): Promise<void> {
  const file = path.join(databaseDir, 'pg_hba.conf');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const trusting = text
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line !== '' && line.split(/\s+/).includes('trust'));
  if (trusting.length > 0) {
    throw new Error(`Embedded PostgreSQL: ${file} allows connections without a password (${trusting.join(' | ')}); use scram-sha-256 instead of trust`);
  }
}

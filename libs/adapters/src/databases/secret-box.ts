import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import path from 'node:path';
import { readOrCreateSecretFile } from '../system/secret-file.js';

const VERSION = 'v1';

/**
 * Encrypts secrets at rest (the authenticators' passwords and the projects' JWT secrets in
 * project_databases) with AES-256-GCM under DATABASE_SECRETS_KEY. `context` (the record id and
 * the field) is authenticated data: a ciphertext copied to another row or column fails to open.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('DATABASE_SECRETS_KEY must be 32 bytes');
    this.key = Buffer.from(key);
  }

  /** From the base64 config value. */
  static fromBase64(value: string): SecretBox {
    return new SecretBox(Buffer.from(value, 'base64'));
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
  }

  /** Throws when the value was not sealed with this key and context (tampered, moved, other key). */
  open(sealed: string, context: string): string {
    const [version, iv, tag, body] = sealed.split(':');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('Not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }
}

/** `${dataDir}/secrets/database-secrets-key`: the generated DATABASE_SECRETS_KEY (0600, folder 0700). */
export function databaseSecretsKeyFile(dataDir: string): string {
  return path.resolve(dataDir, 'secrets', 'database-secrets-key');
}

/**
 * The SecretBox of DATABASE_SECRETS_KEY when it is set, else of a key generated once and kept
 * under DATA_DIR/secrets (like the embedded server's password and the auth signing key).
 * Losing the key loses every project database's secrets: back it up with DATA_DIR.
 */
export async function loadDatabaseSecretBox(options: { readonly key: string | null; readonly dataDir: string }): Promise<SecretBox> {
  if (options.key !== null) return SecretBox.fromBase64(options.key);
  const file = databaseSecretsKeyFile(options.dataDir);
  const key = await readOrCreateSecretFile(file, () => `${randomBytes(32).toString('base64')}\n`, (text) => {
    const bytes = Buffer.from(text.trim(), 'base64');
    if (bytes.length !== 32) throw new Error(`${file} holds no 32-byte base64 key`);
    return bytes;
  });
  return new SecretBox(key);
}

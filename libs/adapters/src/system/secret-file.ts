import { randomUUID } from 'node:crypto';
import { chmod, link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A secret file's text; null when there is none. One readable by others is narrowed to 0600 first. */
export async function readSecretFile(file: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
  return text;
}

/**
 * The secret file's text, creating it with `make()` when missing (0600, its folder 0700). Written
 * to a temporary file then hard-linked into place, which fails when another process got there
 * first — its secret is then used — so processes starting together agree on one secret and
 * nobody reads half a file. `parse` turns the text into the secret (and rejects a bad one).
 */
export async function readOrCreateSecretFile<T>(file: string, make: () => Promise<string> | string, parse: (text: string) => T | Promise<T>): Promise<T> {
  const existing = await readSecretFile(file);
  if (existing !== null) return parse(existing);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await chmod(path.dirname(file), 0o700);
  const temporary = `${file}.${randomUUID()}.tmp`;
  await writeFile(temporary, await make(), { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  const created = await readSecretFile(file);
  if (created === null) throw new Error(`Could not read the secret just written to ${file}`);
  return parse(created);
}

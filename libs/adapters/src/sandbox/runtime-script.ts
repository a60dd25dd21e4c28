import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TEMP_PREFIX } from './dependency-cache.js';

/**
 * Copies one of Kiln's runtime scripts into `<cacheDir>/runtime/<stem>-<hash>.mjs` and answers
 * that path: the cache is visible inside bubblewrap where Kiln's checkout is not. Content-addressed,
 * so versions side by side never overwrite one another; written to a temporary name and renamed,
 * so nobody runs half a file.
 */
export async function installRuntimeScript(cacheDir: string, sourceFile: string, stem: string): Promise<string> {
  const source = await readFile(sourceFile);
  const dir = path.join(cacheDir, 'runtime');
  const target = path.join(dir, `${stem}-${createHash('sha256').update(source).digest('hex').slice(0, 16)}.mjs`);
  if ((await stat(target).catch(() => null))?.isFile() === true) return target;
  await mkdir(dir, { recursive: true });
  const temp = path.join(dir, `${TEMP_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}.mjs`);
  await writeFile(temp, source);
  await rename(temp, target);
  return target;
}

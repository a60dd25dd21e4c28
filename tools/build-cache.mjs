// Skips a build whose inputs have not changed since the last successful one (`npm start`,
// `npm run bench`). The key of a build is a SHA-256 of its inputs' paths and contents (plus the
// keys of the projects it depends on); after a successful build the key is written into the
// output folder as a stamp. The next start rebuilds when the stamp is missing or different.
// Contents rather than modification times: a git checkout, a clock change or a copied tree
// cannot make a stale build look fresh, and touching a file without changing it costs nothing.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The stamp's name in an output folder (a dotfile: the API's static server does not serve it). */
export const STAMP_FILE = '.kiln-build-stamp';

/** Folders inside a project that are outputs or caches, never inputs. */
export const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'coverage', 'test-results', 'playwright-report', '.vite', '.nx', '.data']);

/** Every file under `entry` (a file or a folder, relative to `root`), as sorted relative paths with '/'. */
export function inputFiles(root, entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  const walk = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((item) => {
      const child = path.join(dir, item.name);
      if (item.isDirectory()) return SKIPPED_FOLDERS.has(item.name) ? [] : walk(child);
      return item.isFile() ? [child] : [];
    });
  const files = statSync(full).isDirectory() ? walk(full) : [full];
  return files.map((file) => path.relative(root, file).split(path.sep).join('/'));
}

/**
 * The key of a build: a hash of every input file's path and content, and of the keys it depends
 * on (so a library's change rebuilds what uses it). Same inputs, same key, on any machine.
 */
export function buildKey(root, inputs, dependencyKeys = []) {
  const hash = createHash('sha256');
  const files = [...new Set(inputs.flatMap((entry) => inputFiles(root, entry)))].sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  for (const key of dependencyKeys) hash.update(`dep:${key}\0`);
  return hash.digest('hex');
}

/** The key of the last successful build into `outDir`, or null. */
export function readStamp(outDir) {
  try {
    return readFileSync(path.join(outDir, STAMP_FILE), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/**
 * Whether the build into `outDir` can be skipped: its stamp equals `key` and the files a run
 * needs (`outputs`, relative to `outDir`) are all there.
 */
export function isFresh(outDir, key, outputs = []) {
  return readStamp(outDir) === key && outputs.every((file) => existsSync(path.join(outDir, file)));
}

/** Forget the last build (before building: a build that fails or is interrupted leaves no stamp). */
export function clearStamp(outDir) {
  rmSync(path.join(outDir, STAMP_FILE), { force: true });
}

/** Record a successful build of `key` into `outDir`. */
export function writeStamp(outDir, key) {
  writeFileSync(path.join(outDir, STAMP_FILE), `${key}\n`);
}

import { cp, readdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * A new project's first files, in `dir`: the starter template (without its own node_modules) and,
 * when the starter's dependencies are installed, node_modules linked to their shared tree.
 */
export async function writeStarterFiles(templateDir: string, dir: string, nodeModules: string | undefined): Promise<void> {
  const templateModules = path.join(templateDir, 'node_modules');
  await cp(templateDir, dir, { recursive: true, errorOnExist: true, force: false, filter: (src) => src !== templateModules });
  if (nodeModules !== undefined) await symlink(nodeModules, path.join(dir, 'node_modules'), 'dir');
}

/** The starter template's files as text, by path (node_modules and dist left out): what a new project holds. */
export async function readStarterFiles(templateDir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) files.set(path.relative(templateDir, full).split(path.sep).join('/'), await readFile(full, 'utf8'));
    }
  };
  await walk(templateDir);
  return files;
}

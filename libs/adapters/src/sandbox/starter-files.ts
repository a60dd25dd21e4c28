import { cp, symlink } from 'node:fs/promises';
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

// The builds `npm start` and `npm run bench` need, in dependency order, each skipped when its
// inputs are unchanged since its last successful build (tools/build-cache.mjs).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildKey, clearStamp, isFresh, writeStamp } from './build-cache.mjs';

/** Inputs of every build: the shared compiler options and the installed dependency versions. */
const SHARED_INPUTS = ['tsconfig.base.json', 'package-lock.json'];

const tsc = (tsconfig) => ['node_modules/typescript/bin/tsc', '-p', tsconfig];

/** Vite is a dependency of apps/web only (npm may install it there rather than at the root). */
function viteBuild(root) {
  const webDir = path.join(root, 'apps/web');
  const vite = path.join(path.dirname(createRequire(path.join(webDir, 'package.json')).resolve('vite/package.json')), 'bin/vite.js');
  return [vite, 'build', webDir, '--logLevel', 'warn'];
}

/**
 * The projects: their folder (every file in it is an input, outputs and caches aside), the
 * projects whose output they use, the files a run needs in `dist`, and the build command.
 */
export const PROJECTS = [
  { name: '@kiln/domain', dir: 'libs/domain', deps: [], outputs: ['index.js'], args: () => tsc('libs/domain/tsconfig.lib.json') },
  { name: '@kiln/offline-assistant', dir: 'libs/offline-assistant', deps: ['@kiln/domain'], outputs: ['index.js'], args: () => tsc('libs/offline-assistant/tsconfig.lib.json') },
  { name: '@kiln/adapters', dir: 'libs/adapters', deps: ['@kiln/domain', '@kiln/offline-assistant'], outputs: ['index.js'], args: () => tsc('libs/adapters/tsconfig.lib.json') },
  { name: '@kiln/api', dir: 'apps/api', deps: ['@kiln/domain', '@kiln/offline-assistant', '@kiln/adapters'], outputs: ['main.js'], args: () => tsc('apps/api/tsconfig.app.json') },
  { name: '@kiln/web', dir: 'apps/web', deps: ['@kiln/domain'], outputs: ['index.html'], args: viteBuild },
];

/**
 * Builds the named projects (and nothing else) in order, skipping those whose stamp matches.
 * Exits the process when a build fails, after saying which.
 */
export function buildProjects(root, names, { env = process.env, stdio = 'inherit' } = {}) {
  const keys = new Map();
  for (const project of PROJECTS) {
    const key = buildKey(root, [...SHARED_INPUTS, project.dir], project.deps.map((dep) => keys.get(dep) ?? dep));
    keys.set(project.name, key);
    if (!names.includes(project.name)) continue;
    const outDir = path.join(root, project.dir, 'dist');
    if (isFresh(outDir, key, project.outputs)) {
      console.log(`✔ ${project.name} unchanged`);
      continue;
    }
    console.log(`▶ build ${project.name}`);
    clearStamp(outDir);
    const r = spawnSync(process.execPath, project.args(root), { cwd: root, env, stdio });
    if (r.status !== 0) {
      console.error(`✘ build ${project.name} failed`);
      process.exit(r.status ?? 1);
    }
    writeStamp(outDir, key);
  }
}

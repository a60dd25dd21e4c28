#!/usr/bin/env node
// `npm run bench`: builds the libraries (those that changed), then runs every bench/**/*.bench.mjs in turn.
// Results go to docs/performance.md with the command that produced them.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProjects } from './build-projects.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv[2];

buildProjects(root, ['@kiln/domain', '@kiln/offline-assistant', '@kiln/adapters', '@kiln/api']);

const benches = readdirSync(path.join(root, 'bench'), { recursive: true })
  .filter((f) => f.endsWith('.bench.mjs') && (!only || f.includes(only)))
  .sort();
let status = 0;
for (const bench of benches) {
  console.log(`\n▶ bench/${bench}`);
  const r = spawnSync(process.execPath, [path.join(root, 'bench', bench)], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) status = r.status ?? 1;
}
process.exit(status);

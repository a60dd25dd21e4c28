#!/usr/bin/env node
// `npm run bench`: builds the libraries, then runs every bench/**/*.bench.mjs in turn.
// Results go to docs/performance.md with the command that produced them.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv[2];

for (const project of ['libs/domain/tsconfig.lib.json', 'libs/offline-assistant/tsconfig.lib.json', 'libs/adapters/tsconfig.lib.json', 'apps/api/tsconfig.app.json']) {
  const r = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

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

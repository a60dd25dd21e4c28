#!/usr/bin/env node
// `npm start`: builds every project that changed, then runs the product on embedded defaults: the API
// (which starts an embedded PostgreSQL under DATA_DIR when DATABASE_URL is unset) serving the
// built web app on the same origin. The builder issues add the sandbox host and the preview proxy.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProjects, PROJECTS } from './build-projects.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };

// Every project, each only when its inputs changed since its last build (tools/build-cache.mjs):
// a restart without changes starts the API at once.
buildProjects(root, PROJECTS.map((project) => project.name), { env });

// One origin: the API serves the built web app (apps/web/dist) next to /api, /auth/v1 and
// /health, so there is no second server and no CORS between them.
const port = process.env.PORT ?? '3000';
const origin = `http://localhost:${port}`;
// Share links use the first WEB_ORIGIN: make it this origin unless one is configured.
if (!process.env.WEB_ORIGIN) env.WEB_ORIGIN = `${origin},http://localhost:5173`;
const children = [spawn(process.execPath, ['apps/api/dist/main.js'], { cwd: root, env, stdio: 'inherit' })];
console.log(`\nKiln is starting: ${origin}/ (API health at ${origin}/health)`);
// Say what development mode opens (README "What npm start exposes"), so nobody runs it as production by accident.
if ((process.env.NODE_ENV ?? '').trim() === '' || process.env.NODE_ENV.trim() === 'development') {
  console.log(
    'Development mode: the dev outbox (/api/dev/outbox, this machine only), and, without STRIPE_SECRET_KEY, the local test checkout and dev billing are on.\n' +
      'For production set NODE_ENV=production, DATABASE_URL and the secrets (README, "running in production").\n',
  );
} else console.log('');

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  process.exitCode = code;
}
for (const child of children) child.on('exit', (code) => stop(code ?? 1));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

#!/usr/bin/env node
// `npm test`: every check the project has, in one run, ending with the plain line
// "N passed, N failed". Type-checking and lint count as one check each; every Jest test
// counts as one. Exits non-zero when anything failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', FORCE_COLOR: process.env.FORCE_COLOR ?? '0' };
let passed = 0;
let failed = 0;
const failures = [];

function run(label, command, args) {
  const started = Date.now();
  process.stdout.write(`\n▶ ${label}\n`);
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  process.stdout.write(`${ok ? '✔' : '✘'} ${label} (${seconds} s)\n`);
  return ok;
}

function check(label, command, args) {
  if (run(label, command, args)) passed += 1;
  else {
    failed += 1;
    failures.push(label);
  }
}

const projects = ['libs/domain', 'libs/offline-assistant', 'libs/adapters', 'apps/api', 'apps/web', 'apps/web-e2e'].filter((p) => existsSync(path.join(root, p, 'tsconfig.json')));
for (const project of projects) check(`type-check ${project}`, process.execPath, ['node_modules/typescript/bin/tsc', '-p', `${project}/tsconfig.json`]);
check('lint (eslint, Nx module boundaries)', process.execPath, ['node_modules/eslint/bin/eslint.js', '.']);

// Jest, counts from its JSON report. Two runs: everything but the container sandbox suites, then
// those alone (each holds gVisor sandboxes and Vite servers for minutes; beside the bubblewrap
// escape suites on two cores they starved their timed attacks).
const CONTAINER_SUITES = 'libs/adapters/src/sandbox/.*container';
const out = mkdtempSync(path.join(tmpdir(), 'kiln-jest-'));
function jest(label, selection, name) {
  const report = path.join(out, `${name}.json`);
  // Test files run in a worker process that is replaced once it holds more than the idle limit
  // after a file (ESM mode keeps each file's module graph alive until then): run in band in one
  // process, the whole suite outgrew Node's heap (Jest died at file 236 of 321). The heap limit is
  // raised too, for one file's own peak.
  const jestOk = run(label, process.execPath, [
    '--experimental-vm-modules',
    '--max-old-space-size=6144',
    'node_modules/jest/bin/jest.js',
    '--ci',
    '--workerIdleMemoryLimit=1536MB',
    '--json',
    `--outputFile=${report}`,
    ...selection,
    ...process.argv.slice(2),
  ]);
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    // A suite that fails to load has no failed tests of its own: count it so it cannot hide.
    const brokenSuites = r.testResults.filter((s) => s.status === 'failed' && s.assertionResults.length === 0);
    failed += brokenSuites.length;
    if (!jestOk && r.numFailedTests === 0 && brokenSuites.length === 0) failed += 1;
    if (!jestOk) failures.push(label);
  } else {
    failed += 1;
    failures.push(`${label} (no report)`);
  }
}
jest('unit, property, contract and integration tests (jest)', ['--testPathIgnorePatterns', '/node_modules/', CONTAINER_SUITES], 'main');
jest('the container sandbox host on Docker with gVisor (jest)', ['--testPathPatterns', CONTAINER_SUITES, '--passWithNoTests'], 'container');
rmSync(out, { recursive: true, force: true });

// End-to-end tests in a real Chromium, once a Playwright project exists.
function playwright(config, label, extraEnv = {}) {
  const pwReport = path.join(tmpdir(), `kiln-pw-${process.pid}-${label}.json`);
  process.stdout.write(`\n▶ end-to-end tests (${label})\n`);
  const pw = spawnSync(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '-c', config, '--reporter=list,json'], {
    cwd: root,
    env: { ...env, ...extraEnv, PLAYWRIGHT_JSON_OUTPUT_NAME: pwReport, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    stdio: 'inherit',
  });
  if (existsSync(pwReport)) {
    const s = JSON.parse(readFileSync(pwReport, 'utf8')).stats;
    passed += s.expected + s.flaky;
    failed += s.unexpected;
    rmSync(pwReport, { force: true });
  } else failed += 1;
  if (pw.status !== 0) failures.push(`playwright (${label})`);
}

/** The Docker engine for the container journeys: KILN_TEST_DOCKER_HOST, or Kiln's private test engine. */
function dockerEngine() {
  if (process.env.KILN_TEST_DOCKER_HOST) return { host: process.env.KILN_TEST_DOCKER_HOST };
  if (!existsSync('/usr/sbin/dockerd') || !existsSync('/usr/bin/runsc')) return { missing: 'dockerd or runsc is not installed (apt-get install docker.io runsc)' };
  const started = spawnSync('bash', [path.join(root, 'tools/sandbox-image/engine.sh')], { encoding: 'utf8' });
  return started.status === 0 ? { host: started.stdout.trim() } : { failed: started.stderr.trim() };
}

const e2e = path.join(root, 'apps/web-e2e/playwright.config.ts');
if (existsSync(e2e)) {
  playwright(e2e, 'local sandboxes');
  // The builder and AI-turn journeys with SANDBOX_ENGINE=docker (gVisor).
  const engine = dockerEngine();
  if (engine.host) playwright(path.join(root, 'apps/web-e2e/playwright.docker.config.ts'), 'sandboxes on Docker', { KILN_TEST_DOCKER_HOST: engine.host });
  else if (engine.failed) {
    console.log(`\nThe Docker engine did not start: ${engine.failed}`);
    failed += 1;
    failures.push('playwright (sandboxes on Docker): no engine');
  } else console.log(`\nSkipped the journeys with SANDBOX_ENGINE=docker: ${engine.missing}`);
}

if (failures.length) console.log(`\nFailed: ${failures.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && failures.length === 0 ? 0 : 1);

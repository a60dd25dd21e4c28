import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';

/**
 * The product exactly as `npm start` runs it, on a fresh embedded PostgreSQL in a temp DATA_DIR
 * (DATABASE_URL is removed so the tests never share the integration-test database). `extraEnv`
 * switches a default (playwright.docker.config.ts: sandboxes on Docker); `testMatch` picks specs.
 */
export function kilnE2eConfig({ port, extraEnv = {}, testMatch }: { port: number; extraEnv?: Record<string, string>; testMatch?: string[] }): PlaywrightTestConfig {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kiln-e2e-'));
  // As root, the embedded PostgreSQL runs as the postgres user, who must be able to enter it.
  chmodSync(dataDir, 0o755);
  const repoRoot = path.resolve(__dirname, '../..');
  const { DATABASE_URL: _ignored, ...env } = process.env;

  return defineConfig({
    testDir: './tests',
    ...(testMatch === undefined ? {} : { testMatch }),
    outputDir: path.join(tmpdir(), 'kiln-e2e-results'),
    fullyParallel: false,
    workers: 1,
    retries: 0,
    timeout: 60_000,
    expect: { timeout: 10_000 },
    reporter: [['list']],
    use: {
      baseURL: `http://localhost:${port}`,
      trace: 'off',
      launchOptions: {
        executablePath: '/usr/bin/chromium',
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      },
    },
    webServer: {
      command: `cd ${repoRoot} && node tools/start.mjs`,
      url: `http://localhost:${port}/health`,
      timeout: 240_000,
      // A clean stop (SIGTERM → the API's shutdown hooks) stops dev servers and unmounts project volumes.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { ...env, PORT: String(port), DATA_DIR: dataDir, NODE_ENV: 'development', WEB_ORIGIN: `http://localhost:${port}`, ...extraEnv } as Record<string, string>,
    },
  });
}

export default kilnE2eConfig({ port: Number(process.env['E2E_PORT'] ?? 3310) });

import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { BubblewrapJail, ContainerSandboxHost, DEFAULT_BWRAP_PATH, DEFAULT_SANDBOX_LIMITS, type EmbeddedPostgres, LocalSandboxHost, SandboxedGitImporter, startEmbeddedPostgres } from '@kiln/adapters';
import { AuthModule } from './auth/auth.module.js';
import { assistantFromConfig } from './ai/ai-provider.js';
import { productionHosting } from './hosting/production-hosting.js';
import { productionDatabases } from './databases/production-databases.js';
import { createApp } from './bootstrap.js';
import { StartupLogger } from './common/log-output.js';
import { isolationAtStart, type SandboxIsolation } from './sandbox/sandbox-isolation.js';
import { type AppConfig, loadConfig } from './config.js';
import { postgresAuthStores } from './persistence/postgres-auth-stores.js';
import { PostgresPersistenceModule } from './persistence/postgres-persistence.module.js';
import { objectStoreFromConfig } from './storage/object-store-from-config.js';

function readConfig(): AppConfig {
  try {
    return loadConfig(process.env);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

/** DATABASE_URL when set; otherwise a real PostgreSQL embedded under DATA_DIR (a fresh machine needs no server). */
async function database(config: AppConfig, log: Logger): Promise<{ url: string; embedded: EmbeddedPostgres | null }> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: null };
  // The server's own output stays quiet (it is shown if the start fails); Kiln's notes about it are logged.
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, onLog: (line) => line.startsWith('Embedded PostgreSQL:') && log.log(line) });
  log.log(`Embedded PostgreSQL on 127.0.0.1:${embedded.port}, data in ${config.dataDir}/postgres`);
  return { url: embedded.url, embedded };
}

/** Project code must run isolated (isolationAtStart): production refuses to start without it. */
async function checkIsolation(host: LocalSandboxHost, config: AppConfig, log: Logger): Promise<SandboxIsolation> {
  const decision = isolationAtStart(await host.isolation(), config.nodeEnv);
  if (decision.kind === 'refuse') {
    console.error(decision.message);
    process.exit(1);
  }
  if (decision.kind === 'warn') log.warn(decision.message);
  else log.log(decision.message);
  return decision.isolation;
}

async function main(): Promise<void> {
  const config = readConfig();
  // Until the app's pino logger takes over, in the same format (LOG_FORMAT).
  Logger.overrideLogger(new StartupLogger(config.logFormat));
  const log = new Logger('Main');
  // Project sandboxes under DATA_DIR; their dev servers stop after PREVIEW_IDLE_MINUTES without a
  // preview request, and all of them on shutdown (SandboxModule).
  const hostOptions = {
    root: join(config.dataDir, 'sandboxes'),
    idleStopMs: config.previewIdleMinutes * 60_000,
    limits: config.sandboxLimits,
    // The kernel enforces the disk limit where it can (one volume per project), else a watch.
    diskQuota: await LocalSandboxHost.diskQuotaFor(join(config.dataDir, 'sandboxes')),
  };
  const engine = config.sandboxEngine;
  // SANDBOX_ENGINE=docker: each project in a container of its own under gVisor, adopted after a
  // restart (docs/sandbox-containers.md); otherwise bubblewrap on this machine.
  const sandboxHost =
    engine.kind === 'docker'
      ? new ContainerSandboxHost({
          ...hostOptions,
          dockerHost: engine.dockerHost,
          runtime: engine.runtime,
          pauseIdleMs: engine.pauseIdleSeconds * 1000,
          // Per-sandbox figures in the structured logs, once a minute.
          onMetrics: (sandboxId, metrics) => new Logger('SandboxMetrics').log({ event: 'sandbox.metrics', sandboxId, ...metrics }),
          ...(engine.image === null ? {} : { image: engine.image }),
        })
      : // The next new project's dev server waits ready (most of create → preview is Vite's start).
        new LocalSandboxHost({ ...hostOptions, warmDevServer: true });
  if (sandboxHost instanceof ContainerSandboxHost) {
    const adopted = await sandboxHost.containers.adopt().catch((e: unknown) => {
      log.error(`The Docker engine at ${engine.kind === 'docker' ? engine.dockerHost : ''} does not answer: ${e instanceof Error ? e.message : String(e)}`);
      return [];
    });
    log.log(`Sandboxes on Docker (${engine.kind === 'docker' ? engine.runtime : ''}); ${adopted.length} container(s) adopted`);
  }
  // Git import (docs/decisions.md "Git import"): cloned in bubblewrap behind an egress proxy to the
  // repository's origin only, then copied into the project; the project's folder as the host has it
  // (readDirectory rejects a missing sandbox and mounts a project's volume first).
  const repositoryImporter = new SandboxedGitImporter({
    projectDir: async (id) => {
      await sandboxHost.readDirectory(id, '.');
      return join(await realpath(join(config.dataDir, 'sandboxes')), id);
    },
    jail: existsSync(DEFAULT_BWRAP_PATH) ? new BubblewrapJail({ bwrapPath: DEFAULT_BWRAP_PATH, runtimeDir: join(config.dataDir, 'sandbox-run', 'etc') }) : null,
    limits: { ...DEFAULT_SANDBOX_LIMITS, ...config.sandboxLimits },
    runtimeDir: join(config.dataDir, 'sandbox-run'),
    forwarderDir: join(config.dataDir, 'sandbox-cache'),
    testOrigins: config.repositoryImportTestOrigins,
  });
  // Checked before anything starts: production refuses to run project code unisolated.
  const sandboxIsolation = await checkIsolation(sandboxHost, config, log);
  const { url, embedded } = await database(config, log);
  // The AI assistant: the configured provider, or the deterministic offline generator.
  const aiAssistant = assistantFromConfig(config.ai);
  // File bytes (storage, attachments): under DATA_DIR/objects by default, or S3 (OBJECT_STORE).
  const objectStore = objectStoreFromConfig(config.objectStore);
  log.log(`Object store: ${objectStore.description}`);
  try {
    const app = await createApp(config, {
      persistence: PostgresPersistenceModule.forRoot({
        url,
        smtp: config.smtpUrl ? { url: config.smtpUrl, from: config.mailFrom } : null,
        onClosed: async () => embedded?.stop(),
      }),
      auth: AuthModule.register({ stores: postgresAuthStores }),
      sandboxHost,
      sandboxIsolation,
      ...(sandboxHost instanceof ContainerSandboxHost ? { sandboxEngineHealth: () => sandboxHost.containers.reachable() } : {}),
      repositoryImporter,
      aiAssistant,
      // Publishing: releases built in the sandboxes, served by Host (docs/hosting.md).
      hosting: await productionHosting(config, sandboxHost, log),
      // Project databases (docs/databases.md): on the same server as Kiln's own, or Neon.
      databases: productionDatabases(config, url, log),
      objectStore: objectStore.store,
    });
    await app.listen(config.port);
    const model = aiAssistant.model;
    log.log(`AI assistant: ${model.offline ? 'offline generator (no AI provider configured)' : `${model.provider} ${model.id}`}`);
    log.log(`Kiln API listening on port ${config.port} (OpenAPI at /api/docs)`);
    // The starter's dependencies, installed once in the background so the first project does not wait.
    sandboxHost.prepareTemplate().then(
      () => log.log('Sandbox starter template ready'),
      (error: unknown) => log.error(`Preparing the sandbox starter template failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

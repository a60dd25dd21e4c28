import 'reflect-metadata';
import { type DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { AccessTokenVerifier, AiAssistant, Clock, ObjectStore, RepositoryImporter, SandboxHost, TurnRepository } from '@kiln/domain';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { assistantFromConfig } from './ai/ai-provider.js';
import { AppModule, type LogLevel, type ModuleImport } from './app.module.js';
import { UnconfiguredAccessTokenVerifier } from './common/unconfigured-access-token-verifier.js';
import type { AppConfig } from './config.js';
import { IDEMPOTENCY_KEY_HEADER } from './credits/idempotency-key.js';
import type { DatabaseAdapters } from './databases/databases.module.js';
import type { DataOriginHandler } from './databases/databases.module.js';
import type { HostingAdapters } from './hosting/hosting.module.js';
import { publishedFrameSource } from './hosting/published-urls.js';
import { installPreviewProxy } from './preview/install-preview-proxy.js';
import { answerClientErrors } from './serving/answer-client-errors.js';
import { dataHostHandler, siteHostHandler } from './serving/install-host-dispatch.js';
import { acceptLargeHeaders } from './serving/max-header-size.js';
import { PreviewProxy } from './preview/preview-proxy.js';
import { previewUrls } from './preview/preview.module.js';
import { sandboxWriteFileBody } from './sandbox/sandbox-body.js';
import type { SandboxIsolation } from './sandbox/sandbox-isolation.js';
import type { SandboxEngineHealth } from './sandbox/sandbox.module.js';
import { ACCESS_TOKEN_VERIFIER, DATA_ORIGIN } from './tokens.js';
import { analyticsSources, resolveWebDistDir, serveWebApp } from './web/web-app.js';
import { DEFAULT_GA4_SCRIPT_ORIGIN } from './analytics/analytics-config.js';

/**
 * What createApp is built from. The caller chooses the adapters: main.ts the real ones, the tests
 * theirs (testing/e2e.ts: an in-memory sandbox host, PostgreSQL or in-memory persistence).
 */
export interface AppParts {
  /** The persistence module: PostgresPersistenceModule (main.ts), or the tests' in-memory one. */
  readonly persistence: ModuleImport;
  /** The module binding ACCESS_TOKEN_VERIFIER (default: one that accepts no token). */
  readonly auth?: ModuleImport;
  /** Binds this verifier instead of `auth` (tests use a test double). */
  readonly accessTokenVerifier?: AccessTokenVerifier;
  readonly clock?: Clock;
  /** Where file bytes live: main.ts the configured ObjectStore (filesystem or S3); tests memory. */
  readonly objectStore?: ObjectStore;
  /** pino level (default: silent under NODE_ENV=test, else info). */
  readonly logLevel?: LogLevel;
  /** The built web app to serve (default: resolved from WEB_DIST_DIR or apps/web/dist); null serves none. */
  readonly webDistDir?: string | null;
  /** The project sandboxes: LocalSandboxHost (main.ts), or a test double. */
  readonly sandboxHost: SandboxHost;
  /** Whether that host isolates project code (main.ts checks; default isolated). */
  readonly sandboxIsolation?: SandboxIsolation;
  /** Whether the sandbox engine answers (main.ts under SANDBOX_ENGINE=docker): /health reports it. */
  readonly sandboxEngineHealth?: SandboxEngineHealth;
  /** The sandbox feed's heartbeat in ms (default 30 s); tests shorten it. */
  readonly sandboxFeedHeartbeatMs?: number;
  /** The repository import: SandboxedGitImporter (main.ts), or none (503). */
  readonly repositoryImporter?: RepositoryImporter;
  /** The AI assistant (default: createAiAssistant from the config — the offline one unless a provider is configured). */
  readonly aiAssistant?: AiAssistant;
  /** Where chat turns are kept (default: TURN_REPOSITORY of the persistence module). */
  readonly turnRepository?: TurnRepository;
  /** Publishing's adapters (HostingProvider, DnsResolver, CertificateAuthority, SiteScreenshotter): main.ts the real ones, the tests the in-memory ones. */
  readonly hosting: HostingAdapters;
  /** Project databases' provisioner: main.ts local PostgreSQL or Neon, the tests memory; none answers 503. */
  readonly databases?: DatabaseAdapters;
}

export const OPENAPI_PATH = 'api/docs';
export const OPENAPI_JSON_PATH = 'api/docs-json';

/** Request headers browsers may send: ours plus those @supabase/auth-js sends to /auth/v1. */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  IDEMPOTENCY_KEY_HEADER,
  'X-Request-Id',
  // The name of an attached file (POST /api/projects/{id}/attachments).
  'X-File-Name',
  'apikey',
  'X-Client-Info',
  'X-Supabase-Api-Version',
];
/** Response headers browsers may read (auth-js needs X-Supabase-Api-Version to read error codes). */
export const CORS_EXPOSED_HEADERS = ['X-Request-Id', 'X-Supabase-Api-Version', 'Retry-After', 'WWW-Authenticate'];

@Module({})
class StaticAccessTokenVerifierModule {}

/** A module that binds one AccessTokenVerifier instance to ACCESS_TOKEN_VERIFIER. */
export function accessTokenVerifierModule(verifier: AccessTokenVerifier): DynamicModule {
  return {
    module: StaticAccessTokenVerifierModule,
    providers: [{ provide: ACCESS_TOKEN_VERIFIER, useValue: verifier }],
    exports: [ACCESS_TOKEN_VERIFIER],
  };
}

/**
 * Builds the whole HTTP application — used by main.ts and by every e2e test, so tests exercise
 * exactly what runs in production (helmet, CORS, logging, validation, errors, OpenAPI). The
 * returned app is initialised but not listening.
 */
export async function createApp(config: AppConfig, parts: AppParts): Promise<NestExpressApplication> {
  const auth = parts.accessTokenVerifier
    ? accessTokenVerifierModule(parts.accessTokenVerifier)
    : (parts.auth ?? accessTokenVerifierModule(new UnconfiguredAccessTokenVerifier()));
  const module = AppModule.forRoot({
    config,
    persistence: parts.persistence,
    auth,
    accountDeletion: !parts.accessTokenVerifier && parts.auth !== undefined,
    clock: parts.clock,
    ...(parts.objectStore === undefined ? {} : { objectStore: parts.objectStore }),
    logLevel: parts.logLevel ?? (config.nodeEnv === 'test' ? 'silent' : 'info'),
    sandboxHost: parts.sandboxHost,
    ...(parts.sandboxIsolation === undefined ? {} : { sandboxIsolation: parts.sandboxIsolation }),
    ...(parts.sandboxEngineHealth === undefined ? {} : { sandboxEngineHealth: parts.sandboxEngineHealth }),
    sandboxFeedHeartbeatMs: parts.sandboxFeedHeartbeatMs,
    ...(parts.repositoryImporter === undefined ? {} : { repositoryImporter: parts.repositoryImporter }),
    aiAssistant: parts.aiAssistant ?? assistantFromConfig(config.ai),
    ...(parts.turnRepository ? { turnRepository: parts.turnRepository } : {}),
    hosting: parts.hosting,
    ...(parts.databases ? { databases: parts.databases } : {}),
  });

  const app = await NestFactory.create<NestExpressApplication>(module, {
    bufferLogs: true,
    abortOnError: false,
    // req.rawBody: the payment webhook's signature is checked over the exact bytes received.
    rawBody: true,
  });
  app.useLogger(app.get(Logger));
  if (config.trustProxy !== false) app.set('trust proxy', config.trustProxy);
  app.use(helmet());
  // write-file's larger JSON body (a whole file); Nest's own parser then leaves the request alone.
  app.use('/api/sandbox', sandboxWriteFileBody);
  // Replies under /api are per user: no shared or browser cache may keep them.
  app.use('/api', (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.enableCors({
    origin: [...config.webOrigins],
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
  });
  // The built web app on the same origin (apps/web/dist or WEB_DIST_DIR), when there is one.
  // Under NODE_ENV=test only an explicit WEB_DIST_DIR is served, so API tests never depend on
  // whether the web app happens to be built.
  const webDist =
    parts.webDistDir !== undefined
      ? parts.webDistDir
      : config.nodeEnv === 'test' && config.webDistDir === null
        ? null
        : resolveWebDistDir(config.webDistDir, process.cwd());
  // Frames: the live previews (builder) and the published sites (/project-preview/{slug}); scripts: the GA4 tag when configured.
  if (webDist !== null) {
    serveWebApp(app, webDist, `${previewUrls(config).frameSource} ${publishedFrameSource(config.hosting)}`, analyticsSources(config.analytics.ga4, DEFAULT_GA4_SCRIPT_ORIGIN));
  }
  else if (config.webDistDir !== null) app.get(Logger).warn(`WEB_DIST_DIR ${config.webDistDir} has no index.html: the web app is not served`);
  app.enableShutdownHooks();
  setUpOpenApi(app);
  await app.init();
  // The live preview answers its own hosts before anything else runs, websockets included
  // (docs/sandbox-api.md "Live preview"): preview requests never reach helmet, CORS or Nest.
  // Published sites likewise answer their own hosts (docs/hosting.md "Local hosting").
  const siteServer = parts.hosting.siteServer;
  // And each project's data origin (docs/databases.md "Data API"): /rest/v1 before Express too.
  // Project databases' data origin (docs/databases.md "Data API"), when the databases' adapters serve one.
  const dataOrigin = app.get<DataOriginHandler | null>(DATA_ORIGIN, { strict: false });
  // The data origin is asked first: its match is a pattern of Kiln's own hosts, while the site
  // server's may read the disk (a custom domain's pointer) for every request it is asked about.
  const hostHandlers = [...(dataOrigin === null ? [] : [dataHostHandler(dataOrigin)]), ...(siteServer === undefined ? [] : [siteHostHandler(siteServer)])];
  installPreviewProxy(app.getHttpServer(), app.get(PreviewProxy), hostHandlers);
  // The data API's URLs reach 16 KiB before their headers (serving/max-header-size.ts); headers
  // past the limit get a 431 every origin can read, not a bare one (serving/answer-client-errors.ts).
  acceptLargeHeaders(app.getHttpServer());
  answerClientErrors(app.getHttpServer());
  return app;
}

function setUpOpenApi(app: NestExpressApplication): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Kiln API')
      .setDescription(
        'Kiln’s HTTP API. Every /api/* route needs `Authorization: Bearer <access token>` unless marked public. ' +
          'Errors are `{ code, detail, ...data }`.',
      )
      .setVersion('0.1.0')
      .addBearerAuth()
      .build(),
  );
  SwaggerModule.setup(OPENAPI_PATH, app, document, { jsonDocumentUrl: OPENAPI_JSON_PATH });
}

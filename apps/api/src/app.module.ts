import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import type { AiAssistant, Clock, ObjectStore, RepositoryImporter, SandboxHost, TurnRepository } from '@kiln/domain';
import { LoggerModule } from 'nestjs-pino';
import { AccountsModule } from './accounts/accounts.module.js';
import { AiModule } from './ai/ai.module.js';
import { AnalyticsModule } from './analytics/analytics.module.js';
import { AttachmentsModule } from './attachments/attachments.module.js';
import { AllExceptionsFilter } from './common/all-exceptions.filter.js';
import { BearerAuthGuard } from './common/bearer-auth.guard.js';
import { CoreModule } from './common/core.module.js';
import { loggedUrl } from './common/logged-url.js';
import { prettyDestination, wantsColour } from './common/log-output.js';
import { createValidationPipe } from './common/validation.js';
import type { AppConfig } from './config.js';
import { CreditsModule } from './credits/credits.module.js';
import { type DatabaseAdapters, DatabasesModule } from './databases/databases.module.js';
import { DevModule } from './dev/dev.module.js';
import { GeoModule } from './geo/geo.module.js';
import { HealthModule } from './health/health.module.js';
import { MarketingModule } from './marketing/marketing.module.js';
import { type HostingAdapters, HostingModule } from './hosting/hosting.module.js';
import { PaymentsModule } from './payments/payments.module.js';
import { PlansModule } from './plans/plans.module.js';
import { ProfilesModule } from './profiles/profiles.module.js';
import { ProjectsModule } from './projects/projects.module.js';
import { ReferralsModule } from './referrals/referrals.module.js';
import type { SandboxIsolation } from './sandbox/sandbox-isolation.js';
import { type SandboxEngineHealth, SandboxHostModule, SandboxModule } from './sandbox/sandbox.module.js';
import { TemplatesModule } from './templates/templates.module.js';
import { VectorModule } from './vector/vector.module.js';

export type ModuleImport = Type<unknown> | DynamicModule;
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface AppModuleOptions {
  readonly config: AppConfig;
  /**
   * Provides and exports the persistence tokens (UNIT_OF_WORK, PROFILE_REPOSITORY,
   * PROJECT_REPOSITORY, CREDIT_LEDGER, REFERRAL_CODES, DATABASE_HEALTH, MAILER, MAIL_OUTBOX,
   * RATE_LIMITER, TURN_LOCK…): the PostgreSQL module, or the tests' in-memory one. Made global here.
   */
  readonly persistence: ModuleImport;
  /** Provides and exports ACCESS_TOKEN_VERIFIER (and may hold the auth controllers). Made global here. */
  readonly auth: ModuleImport;
  /**
   * True when `auth` is the AuthModule (it provides AUTH_USE_CASES and serves
   * /api/auth/soft-delete): AccountsModule then provides the DeleteAccount that route runs.
   */
  readonly accountDeletion?: boolean;
  readonly clock?: Clock;
  /** Where file bytes live (OBJECT_STORE); without one, file routes answer 503. */
  readonly objectStore?: ObjectStore;
  readonly logLevel: LogLevel;
  /** The project sandboxes behind /api/sandbox and the live preview. */
  readonly sandboxHost: SandboxHost;
  /** Whether sandboxes are isolated (default: yes — the in-memory host runs no code). */
  readonly sandboxIsolation?: SandboxIsolation;
  /** Whether the sandbox engine answers (SANDBOX_ENGINE=docker; /health reports it); default none. */
  readonly sandboxEngineHealth?: SandboxEngineHealth;
  /** The realtime feed's heartbeat (default 30 s); tests shorten it. */
  readonly sandboxFeedHeartbeatMs?: number;
  /** The repository import (main.ts); none: setup/repository answers 503. */
  readonly repositoryImporter?: RepositoryImporter;
  /** The model behind the AI routes (bootstrap: from config, the offline assistant by default). */
  readonly aiAssistant: AiAssistant;
  /** Where chat turns are kept (default: TURN_REPOSITORY of the persistence module). */
  readonly turnRepository?: TurnRepository;
  /** What publishing builds, serves, resolves, certifies and photographs with (docs/hosting.md). */
  readonly hosting: HostingAdapters;
  /** What project databases are made with (docs/databases.md); none: every database route is a 503. */
  readonly databases?: DatabaseAdapters;
}

/** Re-exports a module's providers to the whole application, whether or not it is @Global itself. */
@Module({})
class PersistenceHostModule {}
@Module({})
class AuthHostModule {}
function globally(host: Type<unknown>, module: ModuleImport): DynamicModule {
  return { module: host, global: true, imports: [module], exports: [module] };
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** A caller's X-Request-Id when it is sane, else a fresh UUID; echoed back in the response. */
function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * LOG_FORMAT: JSON lines straight to stdout, or the same records as readable lines
 * (common/log-format.ts), coloured on a terminal.
 */
function withDestination<O>(config: AppConfig, options: O): O | [O, { write(chunk: string): void }] {
  if (config.logFormat === 'json') return options;
  return [options, prettyDestination(process.stdout, wantsColour(process.stdout, process.env))];
}

/** The composition root: contexts, cross-cutting guard/filter/pipe, and the chosen adapters. */
@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    const { config } = options;
    // One instance: the AI module imports it too, for the feed it publishes file changes on.
    const sandbox = SandboxModule.forRoot({
      heartbeatMs: options.sandboxFeedHeartbeatMs,
      ...(options.repositoryImporter === undefined ? {} : { repositoryImporter: options.repositoryImporter }),
      repositoryTestOrigins: config.repositoryImportTestOrigins,
    });
    // One instance: account deletion (AccountsModule) imports it too, for CancelSubscription.
    const payments = PaymentsModule.forRoot(config);
    return {
      module: AppModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: withDestination(config, {
            level: options.logLevel,
            genReqId: requestId,
            // One short line per request: no headers (tokens, cookies) and no bodies.
            serializers: {
              req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: loggedUrl(req.url) }),
              res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
            },
            // Belt and braces should anything log headers: tokens, cookies and keys never reach the logs.
            redact: {
              paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers.apikey', 'res.headers["set-cookie"]'],
              censor: '[redacted]',
            },
            customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
            autoLogging: { ignore: (req) => req.url === '/health' },
          }),
        }),
        CoreModule.forRoot(config, { clock: options.clock, ...(options.objectStore === undefined ? {} : { objectStore: options.objectStore }) }),
        globally(PersistenceHostModule, options.persistence),
        globally(AuthHostModule, options.auth),
        HealthModule,
        PlansModule,
        CreditsModule,
        ReferralsModule,
        ProfilesModule,
        ProjectsModule,
        AttachmentsModule,
        SandboxHostModule.forRoot(options.sandboxHost, options.sandboxIsolation, options.sandboxEngineHealth ?? null),
        sandbox,
        AiModule.forRoot({
          assistant: options.aiAssistant,
          repairRounds: config.aiRepairRounds,
          rateLimitPerMinute: config.aiRateLimitPerMinute,
          contextLimitChars: config.aiContextChars,
          sandbox,
          ...(options.turnRepository ? { turns: options.turnRepository } : {}),
        }),
        VectorModule,
        TemplatesModule.forRoot(sandbox),
        HostingModule.forRoot(options.hosting),
        DatabasesModule.forRoot(options.databases),
        payments,
        ...(options.accountDeletion ? [AccountsModule.forRoot(payments)] : []),
        GeoModule.forRoot(config),
        MarketingModule.forRoot(config),
        AnalyticsModule.forRoot(config),
        ...(config.nodeEnv === 'production' ? [] : [DevModule]),
      ],
      providers: [
        { provide: APP_GUARD, useClass: BearerAuthGuard },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}

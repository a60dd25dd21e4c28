import { join } from 'node:path';
import {
  type DynamicModule,
  Inject,
  Logger,
  type MiddlewareConsumer,
  Module,
  type ModuleMetadata,
  type NestModule,
  type OnModuleDestroy,
  type OnModuleInit,
  type Provider,
  RequestMethod,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import {
  Argon2PasswordHasher,
  type Argon2Options,
  ExternalAccessTokenVerifier,
  JoseAccessTokenSigner,
  OWASP_ARGON2ID,
  OtpauthTotpCodeGenerator,
  QrcodeSvgRenderer,
  Sha256SecretHasher,
} from '@kiln/adapters';
import {
  type AccessTokenSigner,
  type AuthSettings,
  type AuthUseCases,
  type Clock,
  type IdGenerator,
  type Mailer,
  type PasswordHasher,
  type RandomSource,
  type MfaUseCases,
  type SecretHasher,
  SecondFactorGate,
  authSettings,
  createAuthUseCases,
  createMfaUseCases,
} from '@kiln/domain';
import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../config.js';
import { ACCESS_TOKEN_VERIFIER, APP_CONFIG, CLOCK, ID_GENERATOR, MAILER, RANDOM_SOURCE } from '../tokens.js';
import type { AuthStores } from './auth-stores.js';
import {
  ACCESS_TOKEN_SIGNER,
  AUTH_STORES,
  AUTH_USE_CASES,
  BUILT_IN_VERIFIER,
  GOTRUE_CORS_OPTIONS,
  MFA_USE_CASES,
  PASSWORD_HASHER,
  SECRET_HASHER,
} from './auth.tokens.js';
import { type GoTrueCorsOptions, GoTrueCorsMiddleware } from './gotrue-cors.middleware.js';
import { writeGoTrueError } from './gotrue-errors.js';
import { GoTrueController } from './gotrue.controller.js';
import { GoTrueFactorsController } from './gotrue-factors.controller.js';
import { toGoTrueError } from './gotrue-exception.filter.js';

export interface AuthModuleOptions {
  /**
   * Binds AUTH_STORES (an `AuthStores`): `{ provide: AUTH_STORES, useFactory: (…) => ({ users,
   * codes, sessions, rateLimiter }), inject: […] }` — postgresAuthStores in main.ts, the in-memory
   * stores in tests (testing/in-memory-auth-stores.ts).
   */
  readonly stores: Provider;
  /** Modules the stores provider needs (not needed for what is global: CLOCK, APP_CONFIG, MAILER…). */
  readonly imports?: ModuleMetadata['imports'];
  /** Issuer, product name, password policy, rate rules. Default issuer: http://localhost:<PORT>/auth/v1. */
  readonly settings?: Partial<AuthSettings>;
  /** argon2id cost (default: OWASP's 19 MiB, t=2, p=1). */
  readonly argon2?: Argon2Options;
}

/** Where the generated signing key is kept when AUTH_JWT_PRIVATE_KEY is unset. */
export const jwtKeyFile = (config: Pick<AppConfig, 'dataDir'>): string => join(config.dataDir, 'auth', 'jwt-key.json');

const PURGE_EVERY_MS = 10 * 60_000;

/**
 * The built-in auth: the GoTrue-compatible /auth/v1 endpoints (POST /api/auth/soft-delete is
 * AccountsModule's, added by the app with this module), and
 * the ACCESS_TOKEN_VERIFIER every /api route is guarded by — the built-in verifier, or the
 * external one when the config points the API at a Supabase project (SUPABASE_JWKS_URL or
 * SUPABASE_JWT_SECRET). Needs CLOCK, RANDOM_SOURCE, ID_GENERATOR, APP_CONFIG and MAILER from
 * the application (CoreModule and the persistence module provide them globally).
 */
@Module({})
export class AuthModule implements NestModule, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Auth');
  private purgeTimer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(AUTH_STORES) private readonly stores: AuthStores,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  static register(options: AuthModuleOptions): DynamicModule {
    const providers: Provider[] = [
      options.stores,
      { provide: PASSWORD_HASHER, useFactory: () => new Argon2PasswordHasher(options.argon2 ?? OWASP_ARGON2ID) },
      { provide: SECRET_HASHER, useFactory: () => new Sha256SecretHasher() },
      {
        provide: ACCESS_TOKEN_SIGNER,
        useFactory: (config: AppConfig, clock: Clock) =>
          JoseAccessTokenSigner.create({
            clock,
            issuer: settingsFor(config, options).issuer,
            privateKey: config.authJwtPrivateKey,
            keyFile: jwtKeyFile(config),
          }),
        inject: [APP_CONFIG, CLOCK],
      },
      {
        provide: AUTH_USE_CASES,
        useFactory: (
          config: AppConfig,
          stores: AuthStores,
          passwords: PasswordHasher,
          hasher: SecretHasher,
          signer: AccessTokenSigner,
          mailer: Mailer,
          clock: Clock,
          random: RandomSource,
          ids: IdGenerator,
        ): AuthUseCases =>
          createAuthUseCases({ ...stores, passwords, hasher, signer, mailer, clock, random, ids }, settingsFor(config, options)),
        inject: [APP_CONFIG, AUTH_STORES, PASSWORD_HASHER, SECRET_HASHER, ACCESS_TOKEN_SIGNER, MAILER, CLOCK, RANDOM_SOURCE, ID_GENERATOR],
      },
      {
        provide: MFA_USE_CASES,
        useFactory: (
          config: AppConfig,
          stores: AuthStores,
          hasher: SecretHasher,
          signer: AccessTokenSigner,
          clock: Clock,
          random: RandomSource,
          ids: IdGenerator,
        ): MfaUseCases =>
          createMfaUseCases(
            { ...stores, hasher, signer, clock, random, ids, totp: new OtpauthTotpCodeGenerator(), qr: new QrcodeSvgRenderer() },
            settingsFor(config, options),
          ),
        inject: [APP_CONFIG, AUTH_STORES, SECRET_HASHER, ACCESS_TOKEN_SIGNER, CLOCK, RANDOM_SOURCE, ID_GENERATOR],
      },
      { provide: BUILT_IN_VERIFIER, useFactory: (auth: AuthUseCases) => auth.verifier, inject: [AUTH_USE_CASES] },
      {
        provide: ACCESS_TOKEN_VERIFIER,
        useFactory: (config: AppConfig, auth: AuthUseCases, clock: Clock, stores: AuthStores) => {
          switch (config.auth.kind) {
            case 'builtin':
              // /api needs aal2 from accounts with a verified second factor.
              return new SecondFactorGate(auth.verifier, stores.factors);
            case 'supabase-jwks':
              return new ExternalAccessTokenVerifier({ clock, jwksUrl: config.auth.jwksUrl });
            case 'supabase-secret':
              return new ExternalAccessTokenVerifier({ clock, jwtSecret: config.auth.jwtSecret });
          }
        },
        inject: [APP_CONFIG, AUTH_USE_CASES, CLOCK, AUTH_STORES],
      },
      {
        provide: GOTRUE_CORS_OPTIONS,
        useFactory: (config: AppConfig): GoTrueCorsOptions => ({ origins: config.webOrigins, reflectAnyOrigin: config.nodeEnv === 'development' }),
        inject: [APP_CONFIG],
      },
    ];
    return {
      module: AuthModule,
      imports: options.imports ?? [],
      controllers: [GoTrueController, GoTrueFactorsController],
      providers,
      exports: [ACCESS_TOKEN_VERIFIER, AUTH_USE_CASES, MFA_USE_CASES, BUILT_IN_VERIFIER, AUTH_STORES],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(GoTrueCorsMiddleware).forRoutes({ path: 'auth/v1/*path', method: RequestMethod.ALL });
  }

  onModuleInit(): void {
    // Body-parser failures (bad JSON, too large) happen before any controller, so the
    // controller's filter never sees them. This error handler runs after the routes and before
    // Nest's own, and answers them in GoTrue's shape for /auth/v1.
    const logger = this.logger;
    this.adapterHost.httpAdapter.use('/auth/v1', (error: unknown, req: Request, res: Response, next: NextFunction) => {
      if (res.headersSent) return next(error);
      writeGoTrueError(req, res, toGoTrueError(error, logger));
    });
    this.purgeTimer = setInterval(() => {
      this.stores.codes.purgeExpired(new Date(this.clock.now().getTime() - 24 * 60 * 60_000)).catch((error: unknown) => {
        this.logger.warn(`Purging expired one-time codes failed: ${error instanceof Error ? error.message : String(error)}`);
      });
    }, PURGE_EVERY_MS);
    this.purgeTimer.unref();
  }

  onModuleDestroy(): void {
    if (this.purgeTimer) clearInterval(this.purgeTimer);
  }
}

function settingsFor(config: AppConfig, options: AuthModuleOptions): AuthSettings {
  return authSettings({ issuer: `http://localhost:${config.port}/auth/v1`, ...options.settings });
}

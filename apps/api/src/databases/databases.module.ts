import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { type BeforeApplicationShutdown, type DynamicModule, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import {
  ApplyMigrations,
  CheckDatabase,
  type Clock,
  type DataApiQuota,
  type DataApiTargets,
  DatabaseQuotaGuard,
  type DatabaseProvisioner,
  DatabaseRlsSafety,
  DeleteDatabase,
  DescribeDatabaseForAssistant,
  DropProjectDatabase,
  GetDatabaseConnection,
  type IdGenerator,
  type ObjectStore,
  OwnedProjects,
  type ProfileRepository,
  type ProjectDatabaseRepository,
  ProvisionDatabase,
  type RandomSource,
  type RateLimiter,
  type SchemaMigrator,
  storageLimitsFor,
} from '@kiln/domain';
import { useCase } from '../common/use-case.provider.js';
import type { AppConfig } from '../config.js';
import { ProjectsModule } from '../projects/projects.module.js';
import {
  APP_CONFIG,
  CLOCK,
  DATABASE_ADAPTERS,
  DATA_ORIGIN,
  DATABASE_PLAN_LIMITS,
  DATABASE_PROVISIONER,
  DATABASE_SAFETY,
  ID_GENERATOR,
  OBJECT_STORE,
  PROFILE_REPOSITORY,
  PROJECT_DATABASE_REMOVAL,
  PROJECT_DATABASE_REPOSITORY,
  PROJECT_REPOSITORY,
  RANDOM_SOURCE,
  RATE_LIMITER,
  SANDBOX_HOST,
  SCHEMA_MIGRATOR,
  TURN_LOCK,
} from '../tokens.js';
import { Argon2PasswordHasher, type DataOriginService, OWASP_ARGON2ID, type ProjectAuthStores, Sha256SecretHasher, StorageService, type StorageTransactions } from '@kiln/adapters';
import { randomUUID } from 'node:crypto';
import { AppAuthHandler } from './app-auth/app-auth.handler.js';
import { DatabaseController, DbController } from './db.controller.js';
import { ForgettingDatabaseRemoval } from './forgetting-database-removal.js';
import { ProjectDatabaseTargets } from './project-database-targets.js';
import { UnconfiguredDatabaseProvisioner, UnconfiguredSchemaMigrator } from './unconfigured-provisioner.js';

/** What project databases are made with, chosen by createApp's caller (main.ts: local PostgreSQL or Neon; tests: memory). */
export interface DatabaseAdapters {
  readonly provisioner: DatabaseProvisioner;
  /**
   * Serves the data origin (`/rest/v1` on `{ref}.data.localhost`; docs/databases.md "Data API")
   * from the project databases this module knows: main.ts a DataApiServer over PgDataApi. Without
   * it the data origin is not served.
   */
  readonly dataOrigin?: (targets: DataApiTargets, services: readonly DataOriginService[], quota: DataApiQuota) => DataOriginHandler;
  /** App users' stores per project (`/auth/v1` on the data origin; main.ts PgAppAuthStores). Without them app sign-in is not served. */
  readonly appAuthStores?: { forRef(ref: string): Promise<ProjectAuthStores>; close?(): Promise<void> };
  /**
   * Runs storage's metadata as the caller's role in a project database (main.ts: the data origin's
   * PgDataApi). With it and dataOrigin, `/storage/v1` is served; bytes go to OBJECT_STORE.
   */
  readonly storage?: StorageTransactions;
  /** Applies migrations (local: Kiln's admin connection; absent: migrating answers 503). */
  readonly migrator?: SchemaMigrator;
  /** Releases what the provisioner holds (its admin pool) when the app shuts down. */
  readonly close?: () => Promise<void>;
}

/** App sign-in as a service of the data origin: `/auth/v1/*` of a project's data host. */
function appAuthService(handler: AppAuthHandler): DataOriginService {
  return { prefix: '/auth/v1', handle: (ref, req, res) => void handler.handle(ref, req, res) };
}

/** The data origin's server as the API installs it in front of Express (bootstrap.ts). */
export interface DataOriginHandler {
  matches(req: IncomingMessage): boolean;
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Drops what it keeps of a project database (detached, deleted or reprovisioned: DataApiServer.forget). */
  forget?(ref: string): Promise<void>;
  /** A websocket upgrade on a data origin (`/realtime/v1/websocket`: DataApiServer.handleUpgrade). */
  handleUpgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Ends its websockets (realtime) and refuses new ones: before the HTTP server closes, which waits for them. */
  closeSockets?(): Promise<void>;
}

/**
 * The HTTP server's close waits for every connection, upgraded ones included, and realtime
 * clients heartbeat forever: their sockets end before it closes (Nest runs this hook first).
 */
@Injectable()
class CloseDataOriginSocketsBeforeShutdown implements BeforeApplicationShutdown {
  constructor(@Inject(DATA_ORIGIN) private readonly dataOrigin: DataOriginHandler | null) {}

  async beforeApplicationShutdown(): Promise<void> {
    await this.dataOrigin?.closeSockets?.();
  }
}

@Injectable()
class CloseDatabasesOnShutdown implements OnApplicationShutdown {
  constructor(@Inject(DATABASE_ADAPTERS) private readonly adapters: DatabaseAdapters) {}

  async onApplicationShutdown(): Promise<void> {
    await this.adapters.close?.();
  }
}

/**
 * Project databases (docs/databases.md): POST /api/db/provision, GET /api/db/check/{projectId},
 * DELETE /database/{id}. PROJECT_DATABASE_REPOSITORY comes from the persistence module. Exports
 * PROJECT_DATABASE_REMOVAL (a deleted project's database is dropped),
 * GetDatabaseConnection and DatabaseQuotaGuard for the data API (/rest/v1, /auth/v1 on the data origin),
 * and DescribeDatabaseForAssistant for turns (global, so that the AI module finds it without
 * importing this module's adapters a second time).
 */
@Module({})
export class DatabasesModule {
  static forRoot(adapters: DatabaseAdapters = { provisioner: new UnconfiguredDatabaseProvisioner() }): DynamicModule {
    return {
      module: DatabasesModule,
      // Global for DATABASE_SAFETY (the publish gate) and ApplyMigrations (the end of an AI turn).
      global: true,
      imports: [ProjectsModule],
      controllers: [DbController, DatabaseController],
      providers: [
        { provide: DATABASE_ADAPTERS, useValue: adapters },
        CloseDatabasesOnShutdown,
        CloseDataOriginSocketsBeforeShutdown,
        { provide: DATABASE_PROVISIONER, useValue: adapters.provisioner },
        { provide: SCHEMA_MIGRATOR, useValue: adapters.migrator ?? new UnconfiguredSchemaMigrator() },
        useCase(DatabaseRlsSafety, [PROJECT_DATABASE_REPOSITORY, DATABASE_PROVISIONER]),
        { provide: DATABASE_SAFETY, useExisting: DatabaseRlsSafety },
        useCase(ApplyMigrations, [OwnedProjects, PROFILE_REPOSITORY, PROJECT_DATABASE_REPOSITORY, SANDBOX_HOST, SCHEMA_MIGRATOR, DATABASE_PLAN_LIMITS, TURN_LOCK]),
        { provide: DATABASE_PLAN_LIMITS, useFactory: (config: AppConfig) => config.databases.limits, inject: [APP_CONFIG] },
        useCase(ProvisionDatabase, [
          OwnedProjects,
          PROFILE_REPOSITORY,
          PROJECT_DATABASE_REPOSITORY,
          DATABASE_PROVISIONER,
          DATABASE_PLAN_LIMITS,
          ID_GENERATOR,
          RANDOM_SOURCE,
          CLOCK,
        ]),
        useCase(CheckDatabase, [OwnedProjects, PROFILE_REPOSITORY, PROJECT_DATABASE_REPOSITORY, DATABASE_PROVISIONER, DATABASE_PLAN_LIMITS]),
        useCase(DeleteDatabase, [OwnedProjects, PROJECT_DATABASE_REPOSITORY, DATABASE_PROVISIONER, CLOCK]),
        // Deleting a project drops its database (ProjectsModule's DeleteProject; docs/decisions.md).
        useCase(DropProjectDatabase, [PROJECT_DATABASE_REPOSITORY, DATABASE_PROVISIONER]),
        {
          provide: PROJECT_DATABASE_REMOVAL,
          useFactory: (drop: DropProjectDatabase, databases: ProjectDatabaseRepository, dataOrigin: DataOriginHandler | null, objects: ObjectStore) =>
            new ForgettingDatabaseRemoval(drop, databases, dataOrigin, objects),
          inject: [DropProjectDatabase, PROJECT_DATABASE_REPOSITORY, DATA_ORIGIN, OBJECT_STORE],
        },
        useCase(GetDatabaseConnection, [PROJECT_DATABASE_REPOSITORY, PROJECT_REPOSITORY]),
        useCase(DatabaseQuotaGuard, [PROFILE_REPOSITORY, DATABASE_PROVISIONER, DATABASE_PLAN_LIMITS, CLOCK]),
        {
          provide: DATA_ORIGIN,
          useFactory: (
            connections: GetDatabaseConnection,
            quota: DatabaseQuotaGuard,
            config: AppConfig,
            rateLimiter: RateLimiter,
            clock: Clock,
            random: RandomSource,
            ids: IdGenerator,
            profiles: ProfileRepository,
            objects: ObjectStore,
          ): DataOriginHandler | null => {
            if (adapters.dataOrigin === undefined) return null;
            const targets = new ProjectDatabaseTargets(connections, profiles, config.databases.limits);
            // App sign-in (`/auth/v1`): Kiln's auth use cases over each project's own user store.
            const stores = adapters.appAuthStores;
            const auth =
              stores === undefined
                ? []
                : [
                    appAuthService(
                      new AppAuthHandler({
                        connections,
                        stores,
                        rateLimiter,
                        passwords: new Argon2PasswordHasher(OWASP_ARGON2ID),
                        hasher: new Sha256SecretHasher(),
                        clock,
                        random,
                        ids,
                        dataUrlFor: (ref) => config.databases.dataUrlTemplate.replace('{ref}', ref),
                      }),
                    ),
                  ];
            // Storage (`/storage/v1`): metadata as the caller in the project database, bytes in the ObjectStore.
            const storage =
              adapters.storage === undefined
                ? []
                : [
                    new StorageService({
                      targets,
                      db: adapters.storage,
                      objects,
                      quotas: { limitsFor: async (target) => storageLimitsFor((await profiles.findById(target.ownerId))?.subscriptionPlan ?? 'free', config.databases.storage) },
                      maxFileBytes: config.databases.storage.maxFileBytes,
                      clock,
                      newVersion: randomUUID,
                    }),
                  ];
            // Writes past the owner's plan's size quota are 402 (docs/databases.md "Limits").
            return adapters.dataOrigin(targets, [...auth, ...storage], quota);
          },
          inject: [GetDatabaseConnection, DatabaseQuotaGuard, APP_CONFIG, RATE_LIMITER, CLOCK, RANDOM_SOURCE, ID_GENERATOR, PROFILE_REPOSITORY, OBJECT_STORE],
        },
        useCase(DescribeDatabaseForAssistant, [PROJECT_DATABASE_REPOSITORY, DATABASE_PROVISIONER]),
      ],
      exports: [PROJECT_DATABASE_REMOVAL, GetDatabaseConnection, DatabaseQuotaGuard, DescribeDatabaseForAssistant, DATABASE_PROVISIONER, DATABASE_PLAN_LIMITS, DATABASE_SAFETY, ApplyMigrations],
    };
  }
}

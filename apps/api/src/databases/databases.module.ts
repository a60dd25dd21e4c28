import { type DynamicModule, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import {
  ApplyMigrations,
  CheckDatabase,
  DatabaseQuotaGuard,
  type DatabaseProvisioner,
  DatabaseRlsSafety,
  DeleteDatabase,
  GetDatabaseConnection,
  OwnedProjects,
  ProvisionDatabase,
  type SchemaMigrator,
} from '@kiln/domain';
import { useCase } from '../common/use-case.provider.js';
import type { AppConfig } from '../config.js';
import { ProjectsModule } from '../projects/projects.module.js';
import {
  APP_CONFIG,
  CLOCK,
  DATABASE_ADAPTERS,
  DATABASE_PLAN_LIMITS,
  DATABASE_PROVISIONER,
  DATABASE_SAFETY,
  ID_GENERATOR,
  PROFILE_REPOSITORY,
  PROJECT_DATABASE_REPOSITORY,
  PROJECT_REPOSITORY,
  RANDOM_SOURCE,
  SANDBOX_HOST,
  SCHEMA_MIGRATOR,
  TURN_LOCK,
} from '../tokens.js';
import { DatabaseController, DbController } from './db.controller.js';
import { UnconfiguredDatabaseProvisioner, UnconfiguredSchemaMigrator } from './unconfigured-provisioner.js';

/** What project databases are made with, chosen by createApp's caller (main.ts: local PostgreSQL or Neon; tests: memory). */
export interface DatabaseAdapters {
  readonly provisioner: DatabaseProvisioner;
  /** Applies migrations (local: Kiln's admin connection; absent: migrating answers 503). */
  readonly migrator?: SchemaMigrator;
  /** Releases what the provisioner holds (its admin pool) when the app shuts down. */
  readonly close?: () => Promise<void>;
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
 * GetDatabaseConnection and DatabaseQuotaGuard for the data API (/rest/v1, /auth/v1 on the data origin).
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
        useCase(GetDatabaseConnection, [PROJECT_DATABASE_REPOSITORY, PROJECT_REPOSITORY]),
        useCase(DatabaseQuotaGuard, [PROFILE_REPOSITORY, DATABASE_PROVISIONER, DATABASE_PLAN_LIMITS, CLOCK]),
      ],
      exports: [GetDatabaseConnection, DatabaseQuotaGuard, DATABASE_PROVISIONER, DATABASE_PLAN_LIMITS, DATABASE_SAFETY, ApplyMigrations],
    };
  }
}

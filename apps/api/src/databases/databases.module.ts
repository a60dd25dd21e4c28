import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DynamicModule, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import {
  CheckDatabase,
  type DataApiTargets,
  DatabaseQuotaGuard,
  type DatabaseProvisioner,
  DeleteDatabase,
  DescribeDatabaseForAssistant,
  GetDatabaseConnection,
  OwnedProjects,
  ProvisionDatabase,
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
  ID_GENERATOR,
  PROFILE_REPOSITORY,
  PROJECT_DATABASE_REPOSITORY,
  PROJECT_REPOSITORY,
  RANDOM_SOURCE,
} from '../tokens.js';
import { DatabaseController, DbController } from './db.controller.js';
import { ProjectDatabaseTargets } from './project-database-targets.js';
import { UnconfiguredDatabaseProvisioner } from './unconfigured-provisioner.js';

/** What project databases are made with, chosen by createApp's caller (main.ts: local PostgreSQL or Neon; tests: memory). */
export interface DatabaseAdapters {
  readonly provisioner: DatabaseProvisioner;
  /**
   * Serves the data origin (`/rest/v1` on `{ref}.data.localhost`; docs/databases.md "Data API")
   * from the project databases this module knows: main.ts a DataApiServer over PgDataApi. Without
   * it the data origin is not served.
   */
  readonly dataOrigin?: (targets: DataApiTargets) => DataOriginHandler;
  /** Releases what the provisioner holds (its admin pool) when the app shuts down. */
  readonly close?: () => Promise<void>;
}

/** The data origin's server as the API installs it in front of Express (bootstrap.ts). */
export interface DataOriginHandler {
  matches(req: IncomingMessage): boolean;
  handle(req: IncomingMessage, res: ServerResponse): void;
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
 * GetDatabaseConnection and DatabaseQuotaGuard for the data API (/rest/v1, /auth/v1 on the data origin),
 * and DescribeDatabaseForAssistant for turns (global, so that the AI module finds it without
 * importing this module's adapters a second time).
 */
@Module({})
export class DatabasesModule {
  static forRoot(adapters: DatabaseAdapters = { provisioner: new UnconfiguredDatabaseProvisioner() }): DynamicModule {
    return {
      module: DatabasesModule,
      global: true,
      imports: [ProjectsModule],
      controllers: [DbController, DatabaseController],
      providers: [
        { provide: DATABASE_ADAPTERS, useValue: adapters },
        CloseDatabasesOnShutdown,
        { provide: DATABASE_PROVISIONER, useValue: adapters.provisioner },
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
        {
          provide: DATA_ORIGIN,
          useFactory: (connections: GetDatabaseConnection, config: AppConfig): DataOriginHandler | null => {
            const smallest = Math.min(config.databases.limits.free.connections, config.databases.limits.paid.connections);
            return adapters.dataOrigin?.(new ProjectDatabaseTargets(connections, Math.max(1, smallest - 1))) ?? null;
          },
          inject: [GetDatabaseConnection, APP_CONFIG],
        },
        useCase(DescribeDatabaseForAssistant, [PROJECT_DATABASE_REPOSITORY, DATABASE_PROVISIONER]),
      ],
      exports: [GetDatabaseConnection, DatabaseQuotaGuard, DescribeDatabaseForAssistant, DATABASE_PROVISIONER, DATABASE_PLAN_LIMITS],
    };
  }
}

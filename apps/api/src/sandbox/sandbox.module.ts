import { type DynamicModule, Inject, Injectable, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import {
  ApplyMigrations,
  ApplyProjectTheme,
  CleanUpProject,
  CreateProjectFile,
  CreateProjectFolder,
  DeleteProjectPath,
  ExportProject,
  RenameProjectPath,
  type RepositoryImporter,
  SetupRepository,
  CreateProjectDirectory,
  DeleteProjectFile,
  EnsureSandbox,
  FindProjectErrors,
  GetProjectTree,
  GetSandboxStatus,
  InterruptProjectCommand,
  ListProjectVersions,
  OwnedProjects,
  ReadProjectDirectory,
  ReadProjectFile,
  RemoveSandbox,
  RestartDevServer,
  RestoreProjectFile,
  RestoreProjectVersion,
  RunningCommands,
  RunProjectCommand,
  SaveProjectVersion,
  type SandboxHost,
  type SandboxLifecycle,
  WriteProjectFile,
} from '@kiln/domain';
import { useCase } from '../common/use-case.provider.js';
import { PreviewModule } from '../preview/preview.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { VectorModule } from '../vector/vector.module.js';
import {
  COMMAND_FEED,
  PROBLEM_LOG,
  PROJECT_FILES_CHANGED,
  REPOSITORY_IMPORTER,
  REPOSITORY_URL_OPTIONS,
  SANDBOX_ENGINE_HEALTH,
  SANDBOX_HOST,
  SANDBOX_ISOLATION,
  TURN_LOCK,
} from '../tokens.js';
import { FeedCommandOutput } from './feed-command-output.adapter.js';
import { FeedAndIndexFilesChanged } from './project-files-changed.adapter.js';
import { SandboxController } from './sandbox.controller.js';
import { ThemeController } from './theme.controller.js';
import { FileActionsController } from './file-actions.controller.js';
import { RepositoryController } from './repository.controller.js';
import type { SandboxIsolation } from './sandbox-isolation.js';
import { DEFAULT_FEED_HEARTBEAT_MS, SANDBOX_FEED_OPTIONS, SandboxFeed } from './sandbox-feed.js';

/** Whether the engine that runs the sandboxes answers (GET /health). */
export type SandboxEngineHealth = () => Promise<boolean>;

/** Stops every dev server when the API shuts down (SIGTERM, app.close()). */
@Injectable()
class StopDevServersOnShutdown implements OnApplicationShutdown {
  private readonly logger = new Logger('Sandbox');
  constructor(@Inject(SANDBOX_HOST) private readonly host: SandboxLifecycle) {}
  async onApplicationShutdown(): Promise<void> {
    try {
      await this.host.stopAll();
    } catch (error) {
      this.logger.error(`Stopping the dev servers failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

@Module({})
export class SandboxHostModule {
  /** Binds SANDBOX_HOST and SANDBOX_ISOLATION for the whole app (the sandbox routes and the preview proxy). */
  static forRoot(host: SandboxHost, isolation: SandboxIsolation = { isolated: true }, engineHealth: SandboxEngineHealth | null = null): DynamicModule {
    return {
      module: SandboxHostModule,
      global: true,
      providers: [
        { provide: SANDBOX_HOST, useValue: host },
        { provide: SANDBOX_ISOLATION, useValue: isolation },
        { provide: SANDBOX_ENGINE_HEALTH, useValue: engineHealth },
        StopDevServersOnShutdown,
      ],
      exports: [SANDBOX_HOST, SANDBOX_ISOLATION, SANDBOX_ENGINE_HEALTH],
    };
  }
}

export interface SandboxModuleOptions {
  /** The feed's heartbeat (default 30 s, SPEC §9); tests shorten it. */
  readonly heartbeatMs?: number;
  /** The repository import (main.ts: SandboxedGitImporter); none answers 503 REPOSITORY.UNAVAILABLE. */
  readonly repositoryImporter?: RepositoryImporter;
  /** Test-only origins a repository URL may have (REPOSITORY_IMPORT_TEST_ORIGINS). */
  readonly repositoryTestOrigins?: readonly string[];
}

/** What answers when this server cannot import repositories (no bubblewrap in tests, say). */
const NO_REPOSITORY_IMPORTER: RepositoryImporter = {
  importRepository: () => Promise.reject(Object.assign(new Error('Repository import is not available on this server'), { code: 'REPOSITORY.UNAVAILABLE' })),
};


/** The sandbox routes under /api/sandbox/{id}/ (apply-theme among them) and their realtime feed (docs/sandbox-api.md). */
@Module({})
export class SandboxModule {
  static forRoot(options: SandboxModuleOptions = {}): DynamicModule {
    return {
      module: SandboxModule,
      imports: [ProjectsModule, PreviewModule, VectorModule],
      controllers: [SandboxController, ThemeController, FileActionsController, RepositoryController],
      providers: [
        { provide: SANDBOX_FEED_OPTIONS, useValue: { heartbeatMs: options.heartbeatMs ?? DEFAULT_FEED_HEARTBEAT_MS } },
        SandboxFeed,
        { provide: PROJECT_FILES_CHANGED, useClass: FeedAndIndexFilesChanged },
        { provide: COMMAND_FEED, useClass: FeedCommandOutput },
        // The named commands running in this process (one registry: interrupt finds what run started).
        useCase(RunningCommands, []),
        useCase(EnsureSandbox, [OwnedProjects, SANDBOX_HOST, PROJECT_FILES_CHANGED, PROBLEM_LOG]),
        useCase(GetSandboxStatus, [OwnedProjects, SANDBOX_HOST, PROBLEM_LOG]),
        useCase(RestartDevServer, [OwnedProjects, SANDBOX_HOST, PROBLEM_LOG]),
        useCase(RemoveSandbox, [OwnedProjects, SANDBOX_HOST, PROJECT_FILES_CHANGED]),
        useCase(ReadProjectFile, [OwnedProjects, SANDBOX_HOST]),
        useCase(WriteProjectFile, [OwnedProjects, SANDBOX_HOST, PROJECT_FILES_CHANGED]),
        useCase(DeleteProjectFile, [OwnedProjects, SANDBOX_HOST, PROJECT_FILES_CHANGED]),
        useCase(CreateProjectDirectory, [OwnedProjects, SANDBOX_HOST, PROJECT_FILES_CHANGED]),
        useCase(ReadProjectDirectory, [OwnedProjects, SANDBOX_HOST]),
        useCase(GetProjectTree, [OwnedProjects, SANDBOX_HOST]),
        useCase(RunProjectCommand, [OwnedProjects, SANDBOX_HOST, RunningCommands, COMMAND_FEED, PROJECT_FILES_CHANGED]),
        useCase(InterruptProjectCommand, [OwnedProjects, RunningCommands]),
        useCase(SaveProjectVersion, [OwnedProjects, SANDBOX_HOST, PROBLEM_LOG]),
        useCase(ListProjectVersions, [OwnedProjects, SANDBOX_HOST, PROBLEM_LOG]),
        // With the project databases' ApplyMigrations (DatabasesModule is global): a restore says the schema was kept.
        useCase(RestoreProjectVersion, [OwnedProjects, SANDBOX_HOST, PROJECT_FILES_CHANGED, PROBLEM_LOG, ApplyMigrations]),
        useCase(RestoreProjectFile, [OwnedProjects, SANDBOX_HOST, PROJECT_FILES_CHANGED, PROBLEM_LOG]),
        useCase(FindProjectErrors, [OwnedProjects, SANDBOX_HOST, PROBLEM_LOG]),
        // Under the AI turns' lock (TURN_LOCK, from the persistence module): a theme never interleaves with a turn.
        useCase(ApplyProjectTheme, [OwnedProjects, SANDBOX_HOST, TURN_LOCK, PROJECT_FILES_CHANGED, PROBLEM_LOG]),
        // The builder's file-tree actions: under the same lock, each recorded as a version.
        useCase(CreateProjectFile, [OwnedProjects, SANDBOX_HOST, TURN_LOCK, PROJECT_FILES_CHANGED, PROBLEM_LOG]),
        useCase(CreateProjectFolder, [OwnedProjects, SANDBOX_HOST, TURN_LOCK, PROJECT_FILES_CHANGED, PROBLEM_LOG]),
        useCase(RenameProjectPath, [OwnedProjects, SANDBOX_HOST, TURN_LOCK, PROJECT_FILES_CHANGED, PROBLEM_LOG]),
        useCase(DeleteProjectPath, [OwnedProjects, SANDBOX_HOST, TURN_LOCK, PROJECT_FILES_CHANGED, PROBLEM_LOG]),
        useCase(CleanUpProject, [OwnedProjects, SANDBOX_HOST, TURN_LOCK, PROJECT_FILES_CHANGED, PROBLEM_LOG]),
        useCase(ExportProject, [OwnedProjects, SANDBOX_HOST]),
        { provide: REPOSITORY_IMPORTER, useValue: options.repositoryImporter ?? NO_REPOSITORY_IMPORTER },
        { provide: REPOSITORY_URL_OPTIONS, useValue: { allowOrigins: options.repositoryTestOrigins ?? [] } },
        useCase(SetupRepository, [OwnedProjects, REPOSITORY_IMPORTER, SANDBOX_HOST, TURN_LOCK, PROJECT_FILES_CHANGED, PROBLEM_LOG, REPOSITORY_URL_OPTIONS]),
      ],
      // The AI turns report file changes the same way.
      exports: [SandboxFeed, PROJECT_FILES_CHANGED],
    };
  }
}

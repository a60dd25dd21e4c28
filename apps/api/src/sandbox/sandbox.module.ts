import { type DynamicModule, Inject, Injectable, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { type Clock, OwnedProjects, type ProjectRepository, type SandboxHost, type SandboxLifecycle } from '@kiln/domain';
import { PreviewModule } from '../preview/preview.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { VectorModule } from '../vector/vector.module.js';
import { CLOCK, PROJECT_FILES_CHANGED, PROJECT_REPOSITORY, SANDBOX_HOST, SANDBOX_ISOLATION } from '../tokens.js';
import { FeedAndIndexFilesChanged } from './project-files-changed.adapter.js';
import { SandboxController } from './sandbox.controller.js';
import type { SandboxIsolation } from './sandbox-isolation.js';
import { DEFAULT_FEED_HEARTBEAT_MS, SANDBOX_FEED_OPTIONS, SandboxFeed } from './sandbox-feed.js';

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
  static forRoot(host: SandboxHost, isolation: SandboxIsolation = { isolated: true }): DynamicModule {
    return {
      module: SandboxHostModule,
      global: true,
      providers: [{ provide: SANDBOX_HOST, useValue: host }, { provide: SANDBOX_ISOLATION, useValue: isolation }, StopDevServersOnShutdown],
      exports: [SANDBOX_HOST, SANDBOX_ISOLATION],
    };
  }
}

export interface SandboxModuleOptions {
  /** The feed's heartbeat (default 30 s, SPEC §9); tests shorten it. */
  readonly heartbeatMs?: number;
}

/** The sandbox routes under /api/sandbox/{id}/ and their realtime feed (docs/sandbox-api.md). */
@Module({})
export class SandboxModule {
  static forRoot(options: SandboxModuleOptions = {}): DynamicModule {
    return {
      module: SandboxModule,
      imports: [ProjectsModule, PreviewModule, VectorModule],
      controllers: [SandboxController],
      providers: [
        { provide: SANDBOX_FEED_OPTIONS, useValue: { heartbeatMs: options.heartbeatMs ?? DEFAULT_FEED_HEARTBEAT_MS } },
        SandboxFeed,
        { provide: PROJECT_FILES_CHANGED, useClass: FeedAndIndexFilesChanged },
        {
          provide: OwnedProjects,
          useFactory: (projects: ProjectRepository, clock: Clock) => new OwnedProjects(projects, clock),
          inject: [PROJECT_REPOSITORY, CLOCK],
        },
      ],
      // The AI turns report file changes the same way.
      exports: [SandboxFeed, PROJECT_FILES_CHANGED],
    };
  }
}

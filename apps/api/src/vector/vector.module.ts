import { Module } from '@nestjs/common';
import { type Clock, OwnedProjects, type ProjectRepository } from '@kiln/domain';
import { ProjectsModule } from '../projects/projects.module.js';
import { CLOCK, PROJECT_REPOSITORY } from '../tokens.js';
import { ProjectIndexer } from './project-indexer.js';
import { VectorController } from './vector.controller.js';

/**
 * The vector index routes under /api/vector (SPEC §7) and ProjectIndexer, which modules that
 * write project files import to keep the index up to date (VECTOR_INDEX and SANDBOX_HOST come
 * from the global persistence and sandbox-host modules).
 */
@Module({
  imports: [ProjectsModule],
  controllers: [VectorController],
  providers: [
    ProjectIndexer,
    {
      provide: OwnedProjects,
      useFactory: (projects: ProjectRepository, clock: Clock) => new OwnedProjects(projects, clock),
      inject: [PROJECT_REPOSITORY, CLOCK],
    },
  ],
  exports: [ProjectIndexer],
})
export class VectorModule {}

import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module.js';
import { ProjectIndexer } from './project-indexer.js';
import { VectorController } from './vector.controller.js';

/**
 * The vector index routes under /api/vector (SPEC §7) and ProjectIndexer, which modules that
 * write project files import to keep the index up to date (VECTOR_INDEX and SANDBOX_HOST come
 * from the global persistence and sandbox-host modules; OwnedProjects from ProjectsModule).
 */
@Module({
  imports: [ProjectsModule],
  controllers: [VectorController],
  providers: [
    ProjectIndexer,
  ],
  exports: [ProjectIndexer],
})
export class VectorModule {}

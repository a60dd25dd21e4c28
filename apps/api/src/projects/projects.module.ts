import { Module } from '@nestjs/common';
import {
  CheckPublishAllowed,
  type Clock,
  CreateProject,
  type IdGenerator,
  type PlanCatalog,
  type ProfileRepository,
  type ProjectRepository,
  OwnedProjects,
  PublishProject,
} from '@kiln/domain';
import { CLOCK, ID_GENERATOR, PLAN_CATALOG, PROFILE_REPOSITORY, PROJECT_REPOSITORY } from '../tokens.js';
import { ProjectsController } from './projects.controller.js';

@Module({
  controllers: [ProjectsController],
  providers: [
    {
      provide: CreateProject,
      useFactory: (profiles: ProfileRepository, projects: ProjectRepository, plans: PlanCatalog, ids: IdGenerator, clock: Clock) =>
        new CreateProject(profiles, projects, plans, ids, clock),
      inject: [PROFILE_REPOSITORY, PROJECT_REPOSITORY, PLAN_CATALOG, ID_GENERATOR, CLOCK],
    },
    {
      provide: CheckPublishAllowed,
      useFactory: (profiles: ProfileRepository, projects: ProjectRepository, plans: PlanCatalog) =>
        new CheckPublishAllowed(profiles, projects, plans),
      inject: [PROFILE_REPOSITORY, PROJECT_REPOSITORY, PLAN_CATALOG],
    },
    {
      provide: OwnedProjects,
      useFactory: (projects: ProjectRepository, clock: Clock) => new OwnedProjects(projects, clock),
      inject: [PROJECT_REPOSITORY, CLOCK],
    },
    {
      provide: PublishProject,
      useFactory: (owned: OwnedProjects, projects: ProjectRepository, check: CheckPublishAllowed, clock: Clock) => new PublishProject(owned, projects, check, clock),
      inject: [OwnedProjects, PROJECT_REPOSITORY, CheckPublishAllowed, CLOCK],
    },
  ],
  exports: [CheckPublishAllowed, OwnedProjects],
})
export class ProjectsModule {}

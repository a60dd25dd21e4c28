import { Module } from '@nestjs/common';
import { CheckProjectPublish, CheckPublishAllowed, CreateProject, DeleteProject, ListProjects, OwnedProjects, RenameProject } from '@kiln/domain';
import { useCase } from '../common/use-case.provider.js';
import { CLOCK, ID_GENERATOR, PLAN_CATALOG, PROFILE_REPOSITORY, PROJECT_ATTACHMENT_REMOVAL, PROJECT_DATABASE_REMOVAL, PROJECT_REPOSITORY, PROJECT_TAKEDOWN } from '../tokens.js';
import { ProjectsController } from './projects.controller.js';

/** The project routes; OwnedProjects (whose project it is) is exported to every context that acts on one. */
@Module({
  controllers: [ProjectsController],
  providers: [
    useCase(OwnedProjects, [PROJECT_REPOSITORY, CLOCK]),
    useCase(CreateProject, [PROFILE_REPOSITORY, PROJECT_REPOSITORY, PLAN_CATALOG, ID_GENERATOR, CLOCK]),
    useCase(ListProjects, [PROJECT_REPOSITORY]),
    useCase(RenameProject, [OwnedProjects, PROJECT_REPOSITORY, CLOCK]),
    // PROJECT_TAKEDOWN comes from the (global) HostingModule: a deleted project's site stops being
    // served; PROJECT_DATABASE_REMOVAL from the (global) DatabasesModule: its database is dropped;
    // PROJECT_ATTACHMENT_REMOVAL from the (global) AttachmentsModule: its attached files go too.
    useCase(DeleteProject, [OwnedProjects, PROJECT_REPOSITORY, CLOCK, PROJECT_TAKEDOWN, PROJECT_DATABASE_REMOVAL, PROJECT_ATTACHMENT_REMOVAL]),
    useCase(CheckPublishAllowed, [PROFILE_REPOSITORY, PROJECT_REPOSITORY, PLAN_CATALOG]),
    useCase(CheckProjectPublish, [OwnedProjects, CheckPublishAllowed]),
  ],
  // DeleteProject: account deletion deletes every project the same way (AccountsModule).
  exports: [CheckPublishAllowed, OwnedProjects, DeleteProject],
})
export class ProjectsModule {}

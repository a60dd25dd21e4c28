import { Global, Module } from '@nestjs/common';
import { AttachmentsForTurns, GetAttachment, OwnedProjects, RemoveProjectAttachments, UploadAttachment } from '@kiln/domain';
import { useCase } from '../common/use-case.provider.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { ATTACHMENT_REPOSITORY, CLOCK, ID_GENERATOR, OBJECT_STORE, PROJECT_ATTACHMENT_REMOVAL } from '../tokens.js';
import { AttachmentsController } from './attachments.controller.js';

/**
 * Files attached to prompts (issue 18 item 3): rows in ATTACHMENT_REPOSITORY, bytes in
 * OBJECT_STORE. Global for PROJECT_ATTACHMENT_REMOVAL (the projects' delete) and
 * AttachmentsForTurns (the AI module's turns).
 */
@Global()
@Module({
  imports: [ProjectsModule],
  controllers: [AttachmentsController],
  providers: [
    useCase(UploadAttachment, [OwnedProjects, ATTACHMENT_REPOSITORY, OBJECT_STORE, ID_GENERATOR, CLOCK]),
    useCase(GetAttachment, [OwnedProjects, ATTACHMENT_REPOSITORY, OBJECT_STORE]),
    useCase(RemoveProjectAttachments, [ATTACHMENT_REPOSITORY, OBJECT_STORE]),
    { provide: PROJECT_ATTACHMENT_REMOVAL, useExisting: RemoveProjectAttachments },
    useCase(AttachmentsForTurns, [ATTACHMENT_REPOSITORY, OBJECT_STORE]),
  ],
  exports: [PROJECT_ATTACHMENT_REMOVAL, AttachmentsForTurns],
})
export class AttachmentsModule {}

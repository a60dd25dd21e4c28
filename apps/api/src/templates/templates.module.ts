import { type DynamicModule, Module } from '@nestjs/common';
import { ApplyProjectTemplate, OwnedProjects, TemplateCatalog } from '@kiln/domain';
import type { ModuleImport } from '../app.module.js';
import { useCase } from '../common/use-case.provider.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { PROBLEM_LOG, PROJECT_FILES_CHANGED, SANDBOX_HOST, TURN_LOCK } from '../tokens.js';
import { VectorModule } from '../vector/vector.module.js';
import { TemplateCatalogModule } from './template-catalog.module.js';
import { TemplateIndexing } from './template-indexing.js';
import { TemplatesController } from './templates.controller.js';

/**
 * GET /api/templates, POST /api/sandbox/{id}/apply-template, and the templates' vector index.
 * `sandbox` is the app's SandboxModule (its PROJECT_FILES_CHANGED: the builder's feed and the
 * index hear of the template's files); SANDBOX_HOST and TURN_LOCK are global.
 */
@Module({})
export class TemplatesModule {
  static forRoot(sandbox: ModuleImport): DynamicModule {
    return {
      module: TemplatesModule,
      imports: [ProjectsModule, VectorModule, TemplateCatalogModule, sandbox],
      controllers: [TemplatesController],
      providers: [
        // Under the AI turns' lock: a template never interleaves with a turn writing the same files.
        useCase(ApplyProjectTemplate, [OwnedProjects, TemplateCatalog, SANDBOX_HOST, TURN_LOCK, PROJECT_FILES_CHANGED, PROBLEM_LOG]),
        TemplateIndexing,
      ],
    };
  }
}

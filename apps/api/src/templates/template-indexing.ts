import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import path from 'node:path';
import { readStarterFiles, STARTER_TEMPLATE_RELATIVE_DIR } from '@kiln/adapters';
import { TemplateCatalog } from '@kiln/domain';
import { ProjectIndexer } from '../vector/project-indexer.js';

/**
 * At start, indexes every template as the whole project it makes (the starter with the template's
 * files over it) under its name, so POST /api/vector/clone-template with `template: "landing"`
 * starts a project's index as that template's. A failure is logged; the API starts anyway.
 */
@Injectable()
export class TemplateIndexing implements OnApplicationBootstrap {
  private readonly logger = new Logger('Templates');

  constructor(
    @Inject(TemplateCatalog) private readonly catalog: TemplateCatalog,
    @Inject(ProjectIndexer) private readonly indexer: ProjectIndexer,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    let starter: Map<string, string>;
    try {
      starter = await readStarterFiles(path.resolve(process.cwd(), STARTER_TEMPLATE_RELATIVE_DIR));
    } catch (error) {
      this.logger.warn(`The starter could not be read; templates are not indexed: ${text(error)}`);
      return;
    }
    for (const template of this.catalog.list()) {
      const files = new Map([...starter, ...template.files(starter)]);
      // Queued now (whenIdle on the template's key waits for it); not awaited, the API starts meanwhile.
      this.indexer.indexTemplate(template.id, [...files].map(([p, content]) => ({ path: p, content }))).catch((error: unknown) => {
        this.logger.warn(`Indexing the ${template.id} template failed: ${text(error)}`);
      });
    }
  }
}

function text(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

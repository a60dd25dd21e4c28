import { Logger } from '@nestjs/common';
import { type ContextSelector, type ProjectFile, selectContext } from '@kiln/domain';
import type { ProjectIndexer } from '../vector/project-indexer.js';

/**
 * The turn's context through the project's vector index (entry points, the index's hits for the
 * message, then the rest, within the turn's character limit), with the files the turn requires
 * (a file the assistant must send whole) added first. When the index path fails, the domain's
 * default selection (src/ files, index.html, package.json) is used instead.
 */
export function vectorContextSelector(indexer: ProjectIndexer, logger = new Logger('Turns')): ContextSelector {
  return async (request) => {
    try {
      const context = await indexer.contextFor({ projectId: request.projectId, prompt: request.prompt, budgetChars: request.limitChars });
      const files: ProjectFile[] = [...context.files];
      for (const path of [...request.required].reverse()) {
        if (files.some((f) => f.path === path) || !request.tree.includes(path)) continue;
        files.unshift({ path, content: await request.read(path) });
      }
      return files;
    } catch (error) {
      logger.warn(`Context from the vector index failed for ${request.projectId}, using the default selection: ${error instanceof Error ? error.message : String(error)}`);
      return selectContext(request);
    }
  };
}

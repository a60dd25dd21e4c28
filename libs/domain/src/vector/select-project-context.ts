import type { ProjectFile } from '../ai/ai-assistant.port.js';
import type { SandboxFiles } from '../sandbox/sandbox-files.port.js';
import { MAX_INDEXED_FILE_CHARS, isIgnoredForIndex, looksBinary } from './chunking.js';
import { type ContextSelection, DEFAULT_CONTEXT_BUDGET_CHARS, contextCost, contextOrder, selectContextFiles } from './context-selection.js';
import { mapLimited, INDEX_READ_CONCURRENCY, treeFilePaths } from './sync-project-index.js';
import { DEFAULT_VECTOR_QUERY_LIMIT, type VectorIndex, type VectorMatch } from './vector-index.port.js';

/** At most this many files are read to fill a context (the rest of a huge project is never read). */
export const MAX_CONTEXT_READS = 200;

export interface ProjectContextRequest {
  readonly projectId: string;
  /** The person's request: what the index is asked about. */
  readonly prompt: string;
  /** Default DEFAULT_CONTEXT_BUDGET_CHARS. */
  readonly budgetChars?: number;
  /** How many query hits to ask the index for (default DEFAULT_VECTOR_QUERY_LIMIT, SPEC §9). */
  readonly limit?: number;
}

export interface ProjectContext extends ContextSelection {
  /** Every project-relative file path (the SPEC §9 tree ignore list applied), sorted as the sandbox lists them. */
  readonly tree: readonly string[];
  /** What the index answered for the prompt. */
  readonly matches: readonly VectorMatch[];
  /** False when the index could not be asked (the files are then entry points and the rest, without hits). */
  readonly indexAvailable: boolean;
}

/**
 * What the assistant is given for a request (its TaskInput/PlanInput `tree` and `files`): the
 * project's file tree and the most relevant whole files chosen through the VectorIndex —
 * entry points, then query hits, then the rest — within a character budget, so a large project
 * never overflows the model's context. Files are read lazily in that order and reading stops
 * once the budget cannot take another file. Binary and ignored files are never given.
 */
export class SelectProjectContext {
  constructor(
    private readonly sandbox: SandboxFiles,
    private readonly index: VectorIndex,
  ) {}

  async execute(request: ProjectContextRequest): Promise<ProjectContext> {
    const budget = request.budgetChars ?? DEFAULT_CONTEXT_BUDGET_CHARS;
    const tree = treeFilePaths(await this.sandbox.getTree(request.projectId, '.'));
    let matches: readonly VectorMatch[] = [];
    let indexAvailable = true;
    try {
      matches = await this.index.query(request.projectId, request.prompt, request.limit ?? DEFAULT_VECTOR_QUERY_LIMIT);
    } catch {
      indexAvailable = false;
    }
    const candidates = contextOrder(
      tree.filter((path) => !isIgnoredForIndex(path)),
      matches,
    );

    const read: ProjectFile[] = [];
    let left = Math.max(0, budget);
    for (let at = 0; at < candidates.length && at < MAX_CONTEXT_READS && left > 0; at += INDEX_READ_CONCURRENCY) {
      const batch = candidates.slice(at, Math.min(at + INDEX_READ_CONCURRENCY, MAX_CONTEXT_READS));
      const contents = await mapLimited(batch, INDEX_READ_CONCURRENCY, async (path) => {
        try {
          return await this.sandbox.readFile(request.projectId, path);
        } catch {
          return null;
        }
      });
      batch.forEach((path, i) => {
        const content = contents[i];
        if (content === null || content === undefined || content.length > MAX_INDEXED_FILE_CHARS || looksBinary(content)) return;
        const file = { path, content };
        read.push(file);
        // The same greedy rule as selectContextFiles, to know when to stop reading.
        if (contextCost(file) <= left) left -= contextCost(file);
      });
    }
    return { tree, matches, indexAvailable, ...selectContextFiles(read, matches, budget) };
  }
}

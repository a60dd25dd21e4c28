import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  type IndexEntry,
  type IndexReport,
  type ProjectContext,
  type ProjectContextRequest,
  type ProjectFile,
  type SandboxFiles,
  SelectProjectContext,
  SyncProjectIndex,
  type VectorIndex,
} from '@kiln/domain';
import { SANDBOX_HOST, VECTOR_INDEX } from '../tokens.js';

/** The index key of a named template ('starter' → 'template:starter'); project ids are their own keys. */
export const templateKey = (name: string): string => `template:${name}`;

/**
 * Keeps each project's VectorIndex up to date and answers the assistant's context, for the vector
 * routes and for any module that writes project files (sandbox write-file/delete-file, AI turns).
 *
 * Work on one project runs in order, one piece at a time (a queue per project in this process),
 * so a slow re-read never overwrites a newer one; different projects proceed in parallel.
 * `indexChanged` and `reindexAll` never reject — a write must not fail because its indexing
 * did — they log instead; the methods behind the HTTP routes reject so the route can answer.
 */
@Injectable()
export class ProjectIndexer {
  private readonly logger = new Logger('VectorIndex');
  private readonly queues = new Map<string, Promise<void>>();
  private readonly sync: SyncProjectIndex;
  private readonly context: SelectProjectContext;

  constructor(
    @Inject(SANDBOX_HOST) sandbox: SandboxFiles,
    @Inject(VECTOR_INDEX) private readonly index: VectorIndex,
  ) {
    this.sync = new SyncProjectIndex(sandbox, index);
    this.context = new SelectProjectContext(sandbox, index);
  }

  /**
   * After files of a project were written or deleted: re-reads those paths from the sandbox
   * (a file, a folder, or gone) and updates the index. No paths = anything may have changed (a
   * command, a git restore): the whole project is reindexed. Never rejects; failures are logged.
   */
  async indexChanged(projectId: string, paths: readonly string[]): Promise<void> {
    try {
      await this.enqueue(projectId, () => this.sync.indexChanged(projectId, paths));
    } catch (error) {
      this.logger.warn(`Indexing ${paths.length === 0 ? 'all files' : paths.join(', ')} of ${projectId} failed: ${text(error)}`);
    }
  }

  /** Reindexes the whole project from its sandbox (after ensure or restore). Never rejects. */
  reindexAll(projectId: string): Promise<void> {
    return this.indexChanged(projectId, []);
  }

  /** POST /api/vector/full-reindex: rejects on sandbox or index failures. */
  fullReindex(projectId: string, entries: readonly IndexEntry[]): Promise<IndexReport> {
    return this.enqueue(projectId, () => this.sync.fullReindex(projectId, entries));
  }

  /** POST /api/vector/partial-reindex: rejects on sandbox or index failures. */
  partialReindex(projectId: string, entries: readonly IndexEntry[], removed: readonly string[] = []): Promise<IndexReport> {
    return this.enqueue(projectId, () => this.sync.partialReindex(projectId, entries, removed));
  }

  /** Copies a template's index (a key: a project id or templateKey(name)); false when it has none. */
  cloneTemplate(projectId: string, key: string): Promise<boolean> {
    return this.enqueue(projectId, () => this.index.cloneTemplate(projectId, key));
  }

  /** Indexes a named template's files, for projects to clone (clone-template with `template: name`). */
  indexTemplate(name: string, files: readonly ProjectFile[]): Promise<void> {
    const key = templateKey(name);
    return this.enqueue(key, () => this.index.fullReindex(key, files));
  }

  /** Drops a project's index (the project was deleted or its sandbox cleaned up). Never rejects. */
  async remove(projectId: string): Promise<void> {
    try {
      await this.enqueue(projectId, () => this.index.remove(projectId));
    } catch (error) {
      this.logger.warn(`Removing the index of ${projectId} failed: ${text(error)}`);
    }
  }

  /**
   * What the assistant gets for a request: the file tree and the most relevant whole files within
   * a character budget (SelectProjectContext). Waits for the project's pending indexing first,
   * so files written just before are found. Rejects when the sandbox cannot be read; an index
   * failure only loses the query hits (`indexAvailable: false`, logged).
   */
  async contextFor(request: ProjectContextRequest): Promise<ProjectContext> {
    await this.whenIdle(request.projectId);
    const context = await this.context.execute(request);
    if (!context.indexAvailable) this.logger.warn(`The index could not be queried for ${request.projectId}; context without hits`);
    return context;
  }

  /** Resolves when the project's queued indexing is done. */
  async whenIdle(projectId: string): Promise<void> {
    await this.queues.get(projectId);
  }

  private enqueue<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const run = previous.then(work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return run;
  }
}

function text(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

import { Inject, Injectable } from '@nestjs/common';
import type { FilesChange, ProjectFilesChanged } from '@kiln/domain';
import { ProjectIndexer } from '../vector/project-indexer.js';
import { SandboxFeed } from './sandbox-feed.js';

/**
 * The one place a change to a project's files goes (sandbox routes, AI turns, turns recovered
 * after a restart): published on the project's realtime feed, then the search index follows.
 * A new folder holds no text, so it is published only.
 */
@Injectable()
export class FeedAndIndexFilesChanged implements ProjectFilesChanged {
  constructor(
    @Inject(SandboxFeed) private readonly feed: SandboxFeed,
    @Inject(ProjectIndexer) private readonly indexer: ProjectIndexer,
  ) {}

  filesChanged(projectId: string, change: FilesChange): void {
    this.feed.publish(projectId, { event: 'files-changed', data: { paths: change.paths, reason: change.reason } });
    if (change.reason !== 'create-directory') void this.indexer.indexChanged(projectId, change.paths);
  }

  sandboxCreated(projectId: string): void {
    void this.indexer.reindexAll(projectId);
  }

  sandboxRemoved(projectId: string): void {
    // The stopped status first (when its preview URL can be made), then the emptied tree.
    void this.feed
      .statusOf(projectId, { status: 'stopped', socketPath: null, message: 'The sandbox was removed' })
      .then(
        (data) => this.feed.publish(projectId, { event: 'status', data }),
        () => undefined,
      )
      .then(() => this.feed.publish(projectId, { event: 'files-changed', data: { paths: [], reason: 'delete' } }));
    void this.indexer.remove(projectId);
  }
}

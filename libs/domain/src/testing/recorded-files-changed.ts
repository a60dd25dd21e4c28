import type { FilesChange, ProjectFilesChanged } from '../sandbox/project-files-changed.port.js';

/** A ProjectFilesChanged that keeps what it heard, in order, per project. */
export class RecordedFilesChanged implements ProjectFilesChanged {
  readonly events: { readonly projectId: string; readonly change: FilesChange | 'created' | 'removed' }[] = [];

  filesChanged(projectId: string, change: FilesChange): void {
    this.events.push({ projectId, change });
  }

  sandboxCreated(projectId: string): void {
    this.events.push({ projectId, change: 'created' });
  }

  sandboxRemoved(projectId: string): void {
    this.events.push({ projectId, change: 'removed' });
  }

  /** What one project heard. */
  of(projectId: string): (FilesChange | 'created' | 'removed')[] {
    return this.events.filter((e) => e.projectId === projectId).map((e) => e.change);
  }
}

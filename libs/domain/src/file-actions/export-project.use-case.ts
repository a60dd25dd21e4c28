import type { ProjectOwnership } from '../projects/project-ownership.js';
import type { ProjectNotFound } from '../projects/project.errors.js';
import type { ProjectFileBytes, SandboxFileActions } from '../sandbox/sandbox-file-actions.port.js';
import { ok, type Result } from '../shared/result.js';

/**
 * What "Export as zip" leaves out, at any depth: installed packages, git's folder, build output,
 * tool caches, and the environment files that hold secrets (the database connection).
 */
export const EXPORT_EXCLUDES: readonly string[] = Object.freeze([
  'node_modules',
  '.git',
  'dist',
  '.kiln-build',
  '.npm',
  '.cache',
  '.pnpm-store',
  '.eslintcache',
  '*.tsbuildinfo',
  '.env',
  '.env.local',
]);

/** The files of one export together may not pass this (the zip is streamed; SANDBOX.TOO_LARGE before it starts). */
export const EXPORT_MAX_BYTES = 64 * 1024 * 1024;

/** "Export as zip": the caller's own project's files, for the API to zip as it streams. */
export class ExportProject {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly files: Pick<SandboxFileActions, 'exportFiles'>,
  ) {}

  async execute(userId: string, projectId: string): Promise<Result<AsyncIterable<ProjectFileBytes>, ProjectNotFound>> {
    const found = await this.owned.find(userId, projectId);
    if (!found.ok) return found;
    return ok(this.files.exportFiles(projectId, { exclude: EXPORT_EXCLUDES, maxBytes: EXPORT_MAX_BYTES }));
  }
}

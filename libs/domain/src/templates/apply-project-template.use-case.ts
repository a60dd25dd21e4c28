import type { ProjectTurnLock } from '../ai/engine/project-turn-lock.js';
import type { ProjectOwnership } from '../projects/project-ownership.js';
import { type ProjectBusy, type ProjectNotFound, projectBusy } from '../projects/project.errors.js';
import type { ProjectFilesChanged } from '../sandbox/project-files-changed.port.js';
import type { SandboxFiles } from '../sandbox/sandbox-files.port.js';
import type { SandboxVersions, SaveVersionResult } from '../sandbox/sandbox-versions.port.js';
import { SAVE_VERSION_FAILED } from '../sandbox/use-cases/project-versions.use-cases.js';
import { type ProblemLog, problemText } from '../shared/problem-log.port.js';
import { err, ok, type Result } from '../shared/result.js';
import type { ProjectTemplate, TemplateCatalog, TemplateId, TemplateNotFound } from './project-template.js';

/**
 * The project files a template may build on (index.html keeps its head, main.tsx its imports,
 * the stylesheet says whether the project uses Tailwind). A file the project lacks is left out.
 */
export const TEMPLATE_BASE_PATHS = Object.freeze(['index.html', 'src/main.tsx', 'src/index.css', 'src/routes.tsx']);

export interface AppliedTemplate {
  readonly templateId: TemplateId;
  /** The files written (none: the project already was the template, e.g. Blank on a new project). */
  readonly written: readonly string[];
  /** Only when files were written: the version "Start from the <name> template" (success false when it could not be saved). */
  readonly version?: SaveVersionResult;
}

export type ApplyProjectTemplateError = ProjectNotFound | TemplateNotFound | ProjectBusy;

/** What applying a template needs of the sandbox: reading and writing files, saving a version. */
export type TemplateSandbox = Pick<SandboxFiles, 'readFile' | 'writeFile'> & Pick<SandboxVersions, 'saveVersion' | 'versionHistory' | 'restoreVersion'>;

/** The version message of a template applied (one per template name). */
export const templateVersionMessage = (name: string): string => `Start from the ${name} template`;
const TEMPLATE_VERSION = /^Start from the .+ template$/;

/**
 * The wizard's template step (issue #17 item 6): under the project's turn lock, taken without
 * waiting (PROJECTS.BUSY while a turn runs), the template's files are written into the project's
 * sandbox — only those that differ — reported as changed (the builder's feed and the search
 * index hear of them) and saved as one version. Another template chosen right after one (the
 * wizard's Back, then a different card) replaces it: the project is first restored to the version
 * before the last template (a new version on top, so nothing is lost), so Blank after Store is the
 * starter again and Blog after Store leaves no store pages behind. Host rejections (no sandbox, a failed write) are
 * rethrown for the caller to map; a version that cannot be saved is `success: false` and logged.
 */
export class ApplyProjectTemplate {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly catalog: Pick<TemplateCatalog, 'find'>,
    private readonly sandbox: TemplateSandbox,
    private readonly lock: Pick<ProjectTurnLock, 'tryRun'>,
    private readonly changed: ProjectFilesChanged,
    private readonly problems: ProblemLog,
  ) {}

  async execute(userId: string, projectId: string, templateId: string): Promise<Result<AppliedTemplate, ApplyProjectTemplateError>> {
    const found = await this.owned.find(userId, projectId);
    if (!found.ok) return found;
    const template = this.catalog.find(templateId);
    if (!template.ok) return template;
    const attempt = await this.lock.tryRun(projectId, () => this.apply(projectId, template.value));
    return attempt.ran ? ok(attempt.value) : err(projectBusy());
  }

  private async apply(projectId: string, template: ProjectTemplate): Promise<AppliedTemplate> {
    const undone = await this.undoOtherTemplate(projectId, template);
    const current = await this.currentFiles(projectId);
    const written: string[] = [];
    for (const [path, content] of template.files(current)) {
      const before = current.has(path) ? current.get(path) : await this.readIfPresent(projectId, path);
      if (before === content) continue;
      await this.sandbox.writeFile(projectId, path, content);
      written.push(path);
    }
    if (undone) this.changed.filesChanged(projectId, { paths: [], reason: 'restore' });
    if (written.length === 0) return { templateId: template.id, written };
    this.changed.filesChanged(projectId, { paths: written, reason: 'write' });
    return { templateId: template.id, written, version: await this.saveVersion(projectId, templateVersionMessage(template.name)) };
  }

  /**
   * When the newest version is another template applied (nothing saved after it), puts the files
   * back as they were before it; true when it did. A failed restore is logged and the template is
   * written over the old one, as before.
   */
  private async undoOtherTemplate(projectId: string, template: ProjectTemplate): Promise<boolean> {
    const [latest, before] = await this.sandbox.versionHistory(projectId);
    if (latest === undefined || before === undefined) return false;
    if (!TEMPLATE_VERSION.test(latest.message) || latest.message === templateVersionMessage(template.name)) return false;
    const restored = await this.sandbox.restoreVersion(projectId, before.hash).catch((error: unknown) => ({ success: false, message: problemText(error) }));
    if (!restored.success) this.problems.warn(`Undoing the previous template of ${projectId} failed: ${restored.message}`);
    return restored.success;
  }

  /** The base files the project has; one it lacks is left out, any other read failure is rethrown. */
  private async currentFiles(projectId: string): Promise<Map<string, string>> {
    const files = new Map<string, string>();
    for (const path of TEMPLATE_BASE_PATHS) {
      const content = await this.readIfPresent(projectId, path);
      if (content !== undefined) files.set(path, content);
    }
    return files;
  }

  private async readIfPresent(projectId: string, path: string): Promise<string | undefined> {
    try {
      return await this.sandbox.readFile(projectId, path);
    } catch (error) {
      if (isFileMissing(error)) return undefined;
      throw error;
    }
  }

  private async saveVersion(projectId: string, message: string): Promise<SaveVersionResult> {
    try {
      return await this.sandbox.saveVersion(projectId, message);
    } catch (error) {
      // SPEC §8: a failed commit answers success false; the template's files are written either way.
      this.problems.warn(`Saving the template's version of ${projectId} failed: ${problemText(error)}`);
      return { success: false, message: SAVE_VERSION_FAILED };
    }
  }
}

/** The host's word for a file that is not there (Node's errno, which the hosts keep). */
function isFileMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

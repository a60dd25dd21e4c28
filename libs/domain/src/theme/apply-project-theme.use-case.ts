import type { ProjectTurnLock } from '../ai/engine/project-turn-lock.js';
import type { ProjectOwnership } from '../projects/project-ownership.js';
import { type ProjectBusy, type ProjectNotFound, projectBusy } from '../projects/project.errors.js';
import type { ProjectFilesChanged } from '../sandbox/project-files-changed.port.js';
import type { SandboxFiles } from '../sandbox/sandbox-files.port.js';
import type { SandboxVersions, SaveVersionResult } from '../sandbox/sandbox-versions.port.js';
import { SAVE_VERSION_FAILED } from '../sandbox/use-cases/project-versions.use-cases.js';
import { type ProblemLog, problemText } from '../shared/problem-log.port.js';
import { err, ok, type Result } from '../shared/result.js';
import { mergeTheme, parseTheme, type Theme } from './theme.js';
import { type ThemeInvalid, themeInvalid } from './theme.errors.js';

/** The app's stylesheet a theme is merged into (the starter's Tailwind entry). */
export const THEME_STYLESHEET_PATH = 'src/index.css';

/**
 * `applied`: the stylesheet was rewritten (and a version saved, or tried); `unchanged`: the theme
 * was applied already, nothing written; `kept-original`: the stylesheet's braces do not balance,
 * so it was left as it was (SPEC §5).
 */
export type ThemeApplyOutcome = 'applied' | 'unchanged' | 'kept-original';

export interface AppliedTheme {
  readonly outcome: ThemeApplyOutcome;
  /** The theme's name as applied (trimmed). */
  readonly themeName: string;
  /**
   * Only when applied: the version saved with the new stylesheet. Its failure is `success: false`
   * (SPEC §8, as git/commit answers): the theme stays applied, without a version.
   */
  readonly version?: SaveVersionResult;
}

export type ApplyProjectThemeError = ProjectNotFound | ThemeInvalid | ProjectBusy;

/** What a theme needs of the sandbox: its stylesheet, and saving a version. */
export type ThemeSandbox = Pick<SandboxFiles, 'readFile' | 'writeFile'> & Pick<SandboxVersions, 'saveVersion'>;

/**
 * The theme builder's "Apply theme" (SPEC §2, §5): under the project's turn lock, taken without
 * waiting (PROJECTS.BUSY while a turn runs or waits), src/index.css is read, the theme merged into
 * it, written back when it changed, reported as changed and saved as the version
 * "Apply theme <name>". The host's rejections (no sandbox, no stylesheet, a failed write) are
 * rethrown for the caller to map (SPEC §8: theme application failures are rethrown); a version
 * that cannot be saved is `success: false` and logged. The lock is released whatever happens.
 */
export class ApplyProjectTheme {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly sandbox: ThemeSandbox,
    /** The AI turns' lock: a theme never interleaves with a turn editing the same files. */
    private readonly lock: Pick<ProjectTurnLock, 'tryRun'>,
    /** The builder's feed and the search index hear of the rewritten stylesheet. */
    private readonly changed: ProjectFilesChanged,
    private readonly problems: ProblemLog,
  ) {}

  /** `theme` is untrusted (a request body): it is checked with parseTheme. */
  async execute(userId: string, projectId: string, theme: unknown): Promise<Result<AppliedTheme, ApplyProjectThemeError>> {
    const found = await this.owned.find(userId, projectId);
    if (!found.ok) return found;
    const parsed = parseTheme(theme);
    if (parsed === null) return err(themeInvalid());
    const attempt = await this.lock.tryRun(projectId, () => this.apply(projectId, parsed));
    return attempt.ran ? ok(attempt.value) : err(projectBusy());
  }

  private async apply(projectId: string, theme: Theme): Promise<AppliedTheme> {
    const themeName = theme.name;
    const original = await this.sandbox.readFile(projectId, THEME_STYLESHEET_PATH);
    const merged = mergeTheme(original, theme);
    if (merged.keptOriginal) return { outcome: 'kept-original', themeName };
    if (merged.stylesheet === original) return { outcome: 'unchanged', themeName };
    await this.sandbox.writeFile(projectId, THEME_STYLESHEET_PATH, merged.stylesheet);
    this.changed.filesChanged(projectId, { paths: [THEME_STYLESHEET_PATH], reason: 'write' });
    return { outcome: 'applied', themeName, version: await this.saveVersion(projectId, `Apply theme ${themeName}`) };
  }

  private async saveVersion(projectId: string, message: string): Promise<SaveVersionResult> {
    try {
      return await this.sandbox.saveVersion(projectId, message);
    } catch (error) {
      // SPEC §8: a failed commit answers success false; the stylesheet is written either way.
      this.problems.warn(`Saving the theme's version of ${projectId} failed: ${problemText(error)}`);
      return { success: false, message: SAVE_VERSION_FAILED };
    }
  }
}

import { THEME_PRESETS, type TemplateId, type Theme } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { type Navigator, type SavedPrompts, TYPES } from '../../app/ports';
import { type Logger, UI_TYPES } from '../../app/ui-ports';
import type { AiApi } from '../../api/ai.api';
import type { DatabasesApi } from '../../api/databases.api';
import type { ProjectsApi } from '../../api/projects.api';
import type { SandboxApi } from '../../api/sandbox.api';
import type { TemplateDto, TemplatesApi } from '../../api/templates.api';

/** The wizard's steps, in order (issue #17 item 6). */
export const WIZARD_STEPS = ['name', 'template', 'theme', 'database', 'prompt'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

export const STEP_TITLES: Readonly<Record<WizardStep, string>> = {
  name: 'Name your project',
  template: 'Choose a template',
  theme: 'Pick a theme',
  database: 'Add a database?',
  prompt: 'Describe your first change',
};

/** The theme step's choice: keep the template's own look, or a preset. */
export const KEEP_TEMPLATE_LOOK = 'template';

type Load = { kind: 'loading' } | { kind: 'ready' } | { kind: 'error'; message: string };

const errorText = (error: unknown): string => (error instanceof Error ? error.message : 'Request failed');

/**
 * /wizard/:projectId: name → template → theme → database yes/no → first prompt. Each Next does
 * its step for real before moving on — renames the project, writes the template into the sandbox
 * (started if needed) and starts its index as the template's, applies the theme, provisions the
 * database — and a failure stays on the step with its message. The last step saves the prompt as
 * the project's first message and opens the builder, which sends it as the first turn.
 */
@injectable()
export class WizardVm {
  load: Load = { kind: 'loading' };
  step: WizardStep = 'name';
  projectId = '';
  name = '';
  private savedName = '';
  templates: readonly TemplateDto[] = [];
  template: TemplateId = 'blank';
  /** The template written into the sandbox (a change of mind writes the new one). */
  private appliedTemplate: TemplateId | null = null;
  readonly themes: readonly Theme[] = THEME_PRESETS;
  theme: string = KEEP_TEMPLATE_LOOK;
  private appliedTheme: string = KEEP_TEMPLATE_LOOK;
  wantsDatabase = false;
  private databaseProvisioned = false;
  prompt = '';
  busy = false;
  enhancing = false;
  error: string | null = null;

  /** The person has typed in the name field (the loaded name must not replace it). */
  private nameTyped = false;

  constructor(
    @inject(TYPES.ProjectsApi) private readonly projects: ProjectsApi,
    @inject(TYPES.TemplatesApi) private readonly templatesApi: TemplatesApi,
    @inject(TYPES.SandboxApi) private readonly sandbox: SandboxApi,
    @inject(TYPES.DatabasesApi) private readonly databases: DatabasesApi,
    @inject(TYPES.AiApi) private readonly ai: AiApi,
    @inject(TYPES.SavedPrompts) private readonly savedPrompts: SavedPrompts,
    @inject(TYPES.Navigator) private readonly navigator: Navigator,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
  ) {
    makeAutoObservable<WizardVm, 'projects' | 'templatesApi' | 'sandbox' | 'databases' | 'ai' | 'savedPrompts' | 'navigator' | 'logger' | 'nameTyped'>(
      this,
      { projects: false, templatesApi: false, sandbox: false, databases: false, ai: false, savedPrompts: false, navigator: false, logger: false, themes: false, nameTyped: false },
      { autoBind: true },
    );
  }

  async init(projectId: string): Promise<void> {
    this.projectId = projectId;
    this.load = { kind: 'loading' };
    try {
      const [project, templates] = await Promise.all([this.projects.get(projectId), this.templatesApi.list()]);
      runInAction(() => {
        // What the person typed while the project loaded is theirs: the loaded name only fills an untouched field.
        if (!this.nameTyped) this.name = project.name;
        this.savedName = project.name;
        this.templates = templates;
        // An idea typed before (the landing page's) is the first prompt's draft.
        if (this.prompt === '') this.prompt = this.savedPrompts.get(projectId) ?? '';
        this.load = { kind: 'ready' };
      });
    } catch (error) {
      runInAction(() => (this.load = { kind: 'error', message: errorText(error) }));
    }
  }

  get stepNumber(): number {
    return WIZARD_STEPS.indexOf(this.step) + 1;
  }

  get canGoBack(): boolean {
    return this.stepNumber > 1 && !this.busy;
  }

  get canContinue(): boolean {
    if (this.busy || this.load.kind !== 'ready') return false;
    if (this.step === 'name') return this.name.trim() !== '';
    if (this.step === 'prompt') return this.prompt.trim() !== '' && !this.enhancing;
    return true;
  }

  setName(name: string): void {
    this.name = name;
    this.nameTyped = true;
  }
  chooseTemplate(id: TemplateId): void {
    this.template = id;
  }
  chooseTheme(name: string): void {
    this.theme = name;
  }
  chooseDatabase(wanted: boolean): void {
    this.wantsDatabase = wanted;
  }
  setPrompt(prompt: string): void {
    this.prompt = prompt;
  }

  back(): void {
    if (!this.canGoBack) return;
    this.error = null;
    this.step = WIZARD_STEPS[this.stepNumber - 2] as WizardStep;
  }

  /** Does the current step's work, then moves on (the last step opens the builder). */
  async next(): Promise<void> {
    if (!this.canContinue) return;
    const step = this.step;
    this.busy = true;
    this.error = null;
    try {
      await this.run(step);
      runInAction(() => {
        const following = WIZARD_STEPS[this.stepNumber];
        if (following !== undefined) this.step = following;
      });
    } catch (error) {
      this.logger.warn(`Wizard step ${step} failed`, error);
      runInAction(() => (this.error = errorText(error)));
    } finally {
      runInAction(() => (this.busy = false));
    }
  }

  /** The first prompt rewritten around the chosen template (SPEC §7 enhance-prompt with template_id). */
  async enhancePrompt(): Promise<void> {
    if (this.prompt.trim() === '' || this.enhancing) return;
    this.enhancing = true;
    this.error = null;
    try {
      const enhanced = await this.ai.enhancePrompt(this.prompt.trim(), this.template);
      runInAction(() => (this.prompt = enhanced));
    } catch (error) {
      runInAction(() => (this.error = errorText(error)));
    } finally {
      runInAction(() => (this.enhancing = false));
    }
  }

  private async run(step: WizardStep): Promise<void> {
    switch (step) {
      case 'name':
        return this.rename();
      case 'template':
        return this.applyTemplate();
      case 'theme':
        return this.applyTheme();
      case 'database':
        return this.provisionDatabase();
      case 'prompt':
        return this.startBuilding();
    }
  }

  private async rename(): Promise<void> {
    const name = this.name.trim();
    if (name === this.savedName) return;
    const project = await this.projects.rename(this.projectId, name);
    runInAction(() => {
      this.savedName = project.name;
      this.name = project.name;
    });
  }

  private async applyTemplate(): Promise<void> {
    if (this.appliedTemplate === this.template) return;
    const template = this.template;
    // The sandbox is made here if the project has none yet (idempotent otherwise).
    await this.sandbox.ensure(this.projectId);
    await this.templatesApi.apply(this.projectId, template);
    runInAction(() => {
      this.appliedTemplate = template;
      // A new template brings its own stylesheet: a theme chosen before is applied again.
      this.appliedTheme = KEEP_TEMPLATE_LOOK;
    });
    try {
      await this.templatesApi.cloneIndex(this.projectId, template);
    } catch (error) {
      // The written files are indexed as they change anyway; the copy only makes it immediate.
      this.logger.warn('Copying the template index failed', error);
    }
  }

  private async applyTheme(): Promise<void> {
    if (this.theme === this.appliedTheme) return;
    const theme = this.themes.find((t) => t.name === this.theme);
    if (theme !== undefined) await this.sandbox.applyTheme(this.projectId, theme);
    runInAction(() => (this.appliedTheme = this.theme));
  }

  private async provisionDatabase(): Promise<void> {
    if (!this.wantsDatabase || this.databaseProvisioned) return;
    await this.databases.provision(this.projectId);
    runInAction(() => (this.databaseProvisioned = true));
  }

  private async startBuilding(): Promise<void> {
    this.savedPrompts.set(this.projectId, this.prompt.trim());
    this.navigator.navigate(`/builder/${this.projectId}`);
  }
}

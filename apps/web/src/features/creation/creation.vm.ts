import { appNameFromIdea } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { type Analytics, ApiError, HOME_PROMPT_KEY, type Navigator, type SavedPrompts, TYPES } from '../../app/ports';
import type { ProjectsApi } from '../../api/projects.api';
import { UpgradeDialogStore } from '../billing/upgrade-dialog.store';
import { SandboxSetup, type SetupStage } from '../builder/sandbox-setup';

export const NEW_PROJECT_ID = 'new';
const UNTITLED_PROJECT = 'Untitled project';

/** A project name from the idea: the app's name when the idea gives one (the domain's rule), else its first words (at most 60 characters). */
export function projectNameFrom(prompt: string): string {
  const named = appNameFromIdea(prompt);
  if (named !== null) return named;
  const words = prompt.trim().replace(/\s+/g, ' ').split(' ').slice(0, 8).join(' ');
  const name = words.length > 60 ? `${words.slice(0, 59).trimEnd()}…` : words;
  return name.replace(/[.,;:!?…-]+$/, '') || 'Untitled project';
}

type State =
  | { kind: 'loading' }
  | { kind: 'ready'; projectId: string; name: string; prompt: string | null }
  | { kind: 'no-idea' }
  | { kind: 'limit'; message: string }
  | { kind: 'error'; message: string };

/** SPEC §4 sandbox initialisation as the creation screen shows it (the stage is `CreationVm.stage`). */
export type SetupProgress =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running' }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'done' };

/**
 * /creation/:projectId. With `new`, the idea typed on the landing page (saved prompt 'home')
 * becomes a project: POST /api/projects, the prompt moves to the project's key, and the page
 * goes on to /creation/{id}. With an id it shows that project and its idea while its sandbox is
 * initialised (SPEC §4, three stages with visible progress; a failed stage 1 offers a retry),
 * then opens the builder.
 */
@injectable()
export class CreationVm {
  state: State = { kind: 'loading' };
  setup: SetupProgress = { kind: 'idle' };
  /** The stage under way (or the one that failed). */
  stage: SetupStage = 1;
  private started = false;
  private generation = 0;
  private inflight: { projectId: string; promise: Promise<void> } | null = null;

  constructor(
    @inject(TYPES.ProjectsApi) private readonly projects: ProjectsApi,
    @inject(TYPES.SavedPrompts) private readonly prompts: SavedPrompts,
    @inject(TYPES.Navigator) private readonly navigator: Navigator,
    @inject(TYPES.Analytics) private readonly analytics: Analytics,
    @inject(UpgradeDialogStore) private readonly upgrade: Pick<UpgradeDialogStore, 'openFor'>,
    @inject(SandboxSetup) private readonly sandbox: Pick<SandboxSetup, 'run'>,
  ) {
    makeAutoObservable<CreationVm, 'projects' | 'prompts' | 'navigator' | 'analytics' | 'upgrade' | 'started' | 'sandbox' | 'generation' | 'inflight'>(
      this,
      { projects: false, prompts: false, navigator: false, analytics: false, upgrade: false, started: false, sandbox: false, generation: false, inflight: false },
      { autoBind: true },
    );
  }

  /** `wizard`: a new project goes on to the setup wizard (/wizard/{id}) rather than straight to its sandbox. */
  async init(projectId: string, wizard = false): Promise<void> {
    if (projectId === NEW_PROJECT_ID) return this.createFromIdea(wizard);
    const generation = this.generation;
    this.state = { kind: 'loading' };
    try {
      const project = await this.projects.get(projectId);
      this.analytics.track('Project Opened', { project_id: project.id, source: 'creation' });
      runInAction(() => (this.state = { kind: 'ready', projectId: project.id, name: project.name, prompt: this.prompts.get(project.id) }));
    } catch (error) {
      runInAction(() => (this.state = { kind: 'error', message: describe(error) }));
      return;
    }
    if (generation === this.generation) await this.initialiseSandbox(projectId);
  }

  /**
   * SPEC §4 sandbox initialisation: 1 create the sandbox if missing (SPEC §8: a sandbox whose
   * address answers counts as running), 2 read the root folder, 3 load the file tree and scan
   * for errors; then the builder opens. A failure stops at its stage and offers `retrySetup`.
   * A run still under way for the same project is joined, not repeated (StrictMode remounts).
   */
  async initialiseSandbox(projectId: string): Promise<void> {
    const generation = this.generation;
    let run = this.inflight?.projectId === projectId ? this.inflight.promise : null;
    if (run === null) {
      this.stage = 1;
      const started = this.sandbox.run(projectId, (next) => runInAction(() => (this.stage = next)));
      run = started.then(() => undefined);
      const inflight = { projectId, promise: run };
      this.inflight = inflight;
      run.then(
        () => this.clearInflight(inflight),
        () => this.clearInflight(inflight),
      );
    }
    this.setup = { kind: 'running' };
    try {
      await run;
    } catch (error) {
      runInAction(() => {
        if (generation === this.generation) this.setup = { kind: 'failed', message: describe(error) };
      });
      return;
    }
    if (generation !== this.generation) return;
    runInAction(() => (this.setup = { kind: 'done' }));
    this.navigator.navigate(`/builder/${projectId}`, { replace: true });
  }

  /** The screen unmounts: a run under way no longer moves the browser to the builder. */
  dispose(): void {
    this.generation += 1;
  }

  private clearInflight(inflight: { projectId: string; promise: Promise<void> }): void {
    if (this.inflight === inflight) this.inflight = null;
  }

  retrySetup(): Promise<void> {
    return this.state.kind === 'ready' ? this.initialiseSandbox(this.state.projectId) : Promise.resolve();
  }

  private async createFromIdea(wizard: boolean): Promise<void> {
    // React StrictMode mounts twice in development: create the project once.
    if (this.started) return;
    this.started = true;
    const idea = this.prompts.get(HOME_PROMPT_KEY);
    // The wizard asks for the name and the first prompt itself: it needs no idea to start.
    if (!idea && !wizard) {
      this.state = { kind: 'no-idea' };
      return;
    }
    try {
      const project = await this.projects.create(idea ? projectNameFrom(idea) : UNTITLED_PROJECT);
      if (idea) this.prompts.set(project.id, idea);
      this.prompts.remove(HOME_PROMPT_KEY);
      this.analytics.track('Project Created', { project_id: project.id });
      this.navigator.navigate(wizard ? `/wizard/${project.id}` : `/creation/${project.id}`, { replace: true });
    } catch (error) {
      // SPEC §4: a plan limit opens the upgrade dialog (private project limit unless the API names another).
      this.upgrade.openFor(error, 'project');
      runInAction(() => {
        this.state =
          error instanceof ApiError && error.status === 402
            ? { kind: 'limit', message: error.message }
            : { kind: 'error', message: describe(error) };
      });
    }
  }
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : 'Request failed');

import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { type Analytics, ApiError, HOME_PROMPT_KEY, type Navigator, type SavedPrompts, TYPES } from '../../app/ports';
import type { ProjectsApi } from '../../api/projects.api';
import { UpgradeDialogStore } from '../billing/upgrade-dialog.store';

export const NEW_PROJECT_ID = 'new';

/** A project name from the idea: its first words, at most 60 characters. */
export function projectNameFrom(prompt: string): string {
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

/**
 * /creation/:projectId. With `new`, the idea typed on the landing page (saved prompt 'home')
 * becomes a project: POST /api/projects, the prompt moves to the project's key, and the page
 * goes on to /creation/{id}. With an id it shows that project and its idea; the builder issue
 * starts building from here.
 */
@injectable()
export class CreationVm {
  state: State = { kind: 'loading' };
  private started = false;

  constructor(
    @inject(TYPES.ProjectsApi) private readonly projects: ProjectsApi,
    @inject(TYPES.SavedPrompts) private readonly prompts: SavedPrompts,
    @inject(TYPES.Navigator) private readonly navigator: Navigator,
    @inject(TYPES.Analytics) private readonly analytics: Analytics,
    @inject(UpgradeDialogStore) private readonly upgrade: Pick<UpgradeDialogStore, 'openFor'>,
  ) {
    makeAutoObservable<CreationVm, 'projects' | 'prompts' | 'navigator' | 'analytics' | 'upgrade' | 'started'>(
      this,
      { projects: false, prompts: false, navigator: false, analytics: false, upgrade: false, started: false },
      { autoBind: true },
    );
  }

  async init(projectId: string): Promise<void> {
    if (projectId === NEW_PROJECT_ID) return this.createFromIdea();
    this.state = { kind: 'loading' };
    try {
      const project = await this.projects.get(projectId);
      this.analytics.track('Project Opened', { project_id: project.id });
      runInAction(() => (this.state = { kind: 'ready', projectId: project.id, name: project.name, prompt: this.prompts.get(project.id) }));
    } catch (error) {
      runInAction(() => (this.state = { kind: 'error', message: describe(error) }));
    }
  }

  private async createFromIdea(): Promise<void> {
    // React StrictMode mounts twice in development: create the project once.
    if (this.started) return;
    this.started = true;
    const idea = this.prompts.get(HOME_PROMPT_KEY);
    if (!idea) {
      this.state = { kind: 'no-idea' };
      return;
    }
    try {
      const project = await this.projects.create(projectNameFrom(idea));
      this.prompts.set(project.id, idea);
      this.prompts.remove(HOME_PROMPT_KEY);
      this.analytics.track('Project Created', { project_id: project.id });
      this.navigator.navigate(`/creation/${project.id}`, { replace: true });
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

import { MAX_PROJECT_NAME_LENGTH } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { errorText } from '../../../app/error-text';
import { type Navigator, type Toasts, TYPES } from '../../../app/ports';
import type { ProjectDto, ProjectsApi } from '../../../api/projects.api';

/**
 * The builder's project settings (SPEC §2 builder screen: settings panel), opened from the
 * project's name: rename the project, see its address and whether it is live, delete it. A
 * delete is confirmed by typing the project's name, and leaves the builder for the projects list.
 */
@injectable()
export class ProjectSettingsVm {
  open = false;
  loading = false;
  project: ProjectDto | null = null;
  name = '';
  confirmText = '';
  busy: 'saving' | 'deleting' | null = null;
  error: string | null = null;
  private projectId = '';
  private onRenamed: (name: string) => void = () => undefined;

  constructor(
    @inject(TYPES.ProjectsApi) private readonly api: ProjectsApi,
    @inject(TYPES.Toasts) private readonly toasts: Toasts,
    @inject(TYPES.Navigator) private readonly navigator: Navigator,
  ) {
    makeAutoObservable<ProjectSettingsVm, 'api' | 'toasts' | 'navigator' | 'projectId' | 'onRenamed'>(
      this,
      { api: false, toasts: false, navigator: false, projectId: false, onRenamed: false },
      { autoBind: true },
    );
  }

  /** The builder's project; `onRenamed` keeps the builder's title in step. */
  setProject(projectId: string, onRenamed: (name: string) => void): void {
    if (projectId !== this.projectId) this.close();
    this.projectId = projectId;
    this.onRenamed = onRenamed;
  }

  async show(): Promise<void> {
    if (this.projectId === '') return;
    this.open = true;
    this.error = null;
    this.confirmText = '';
    this.loading = true;
    const projectId = this.projectId;
    try {
      const project = await this.api.get(projectId);
      runInAction(() => {
        if (projectId !== this.projectId) return;
        this.project = project;
        this.name = project.name;
      });
    } catch (error) {
      runInAction(() => (this.error = errorText(error, 'The project could not be loaded.')));
    } finally {
      runInAction(() => (this.loading = false));
    }
  }

  close(): void {
    if (this.busy !== null) return;
    this.open = false;
    this.project = null;
    this.error = null;
  }

  setName(name: string): void {
    this.name = name;
  }

  setConfirmText(text: string): void {
    this.confirmText = text;
  }

  get nameError(): string | null {
    const name = this.name.trim();
    if (name === '') return 'Give the project a name.';
    return name.length > MAX_PROJECT_NAME_LENGTH ? `Use at most ${MAX_PROJECT_NAME_LENGTH} characters.` : null;
  }

  get canSave(): boolean {
    return this.project !== null && this.busy === null && this.nameError === null && this.name.trim() !== this.project.name;
  }

  /** Deleting needs the project's name typed exactly (spaces around it aside). */
  get canDelete(): boolean {
    return this.project !== null && this.busy === null && this.confirmText.trim() === this.project.name;
  }

  async save(): Promise<void> {
    const project = this.project;
    if (project === null || !this.canSave) return;
    this.busy = 'saving';
    this.error = null;
    try {
      const renamed = await this.api.rename(project.id, this.name.trim());
      runInAction(() => {
        this.project = renamed;
        this.name = renamed.name;
      });
      this.onRenamed(renamed.name);
      this.toasts.show({ title: 'Project renamed', description: `It is now called “${renamed.name}”.`, variant: 'success' });
    } catch (error) {
      runInAction(() => (this.error = errorText(error, 'The project could not be renamed.')));
    } finally {
      runInAction(() => (this.busy = null));
    }
  }

  async remove(): Promise<void> {
    const project = this.project;
    if (project === null || !this.canDelete) return;
    this.busy = 'deleting';
    this.error = null;
    try {
      await this.api.remove(project.id);
      runInAction(() => {
        this.busy = null;
        this.close();
      });
      this.toasts.show({ title: 'Project deleted', description: `“${project.name}” was deleted.`, variant: 'success' });
      this.navigator.navigate('/', { replace: true });
    } catch (error) {
      runInAction(() => {
        this.busy = null;
        this.error = errorText(error, 'The project could not be deleted.');
      });
    }
  }
}

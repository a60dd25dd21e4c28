import { MAX_PROJECT_NAME_LENGTH } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { type SessionService, type Timers, type Toasts, TYPES } from '../../app/ports';
import type { HostingApi, SiteSummaryDto } from '../../api/hosting.api';
import type { ProjectDto, ProjectsApi } from '../../api/projects.api';
import { errorText } from '../../app/error-text';
import { relativeTime } from '../../app/relative-time';
import { type Logger, UI_TYPES } from '../../app/ui-ports';
import { displayUrl, safeHttpUrl, safeImageUrl } from '../hosting/site-display';

export interface ProjectCard {
  readonly id: string;
  readonly name: string;
  readonly href: string;
  /** 'Edited 3 minutes ago' */
  readonly edited: string;
  readonly published: boolean;
  /** The live site's address (http/https only), from GET /api/fly/sites. */
  readonly liveUrl: string | null;
  /** 'chores.apps.localhost:3000'. */
  readonly liveHost: string | null;
  /** The published site's screenshot, when one was taken. */
  readonly thumbnail: string | null;
}

/** A project as its home card shows it, with its site when it has one (GET /api/fly/sites). */
export function projectCard(p: ProjectDto, now: number, site: SiteSummaryDto | null = null): ProjectCard {
  const live = site?.status === 'live';
  const liveUrl = live ? safeHttpUrl(site.published_url) : null;
  return {
    id: p.id,
    name: p.name,
    href: `/builder/${p.id}`,
    edited: `Edited ${relativeTime(p.updated_at, now)}`,
    // SPEC §3: a non-null domain means published (the API keeps it while the site is live); the site says the same.
    published: p.domain !== null || live,
    liveUrl,
    liveHost: liveUrl === null ? null : displayUrl(liveUrl),
    thumbnail: live ? safeImageUrl(site.screenshot_url) : null,
  };
}

const isSiteSummary = (s: unknown): s is SiteSummaryDto =>
  typeof s === 'object' && s !== null && typeof (s as SiteSummaryDto).project_id === 'string' && typeof (s as SiteSummaryDto).status === 'string';

type Dialog = { readonly kind: 'rename'; readonly project: ProjectDto; readonly name: string } | { readonly kind: 'delete'; readonly project: ProjectDto } | null;

/**
 * "Your projects" on the home page for a signed-in person (SPEC §3 "all projects"): each opens in
 * the builder, and can be renamed or deleted (a deleted project no longer counts against the
 * plan's private-project limit). Signed-out visitors see nothing and nothing is fetched.
 */
@injectable()
export class ProjectsVm {
  projects: ProjectDto[] = [];
  /** The projects' sites (GET /api/fly/sites); empty when that request failed. */
  sites: SiteSummaryDto[] = [];
  loading = false;
  loaded = false;
  error: string | null = null;
  dialog: Dialog = null;
  busy = false;
  dialogError: string | null = null;

  constructor(
    @inject(TYPES.ProjectsApi) private readonly api: ProjectsApi,
    @inject(TYPES.HostingApi) private readonly hosting: Pick<HostingApi, 'sites'>,
    @inject(TYPES.Session) private readonly session: SessionService,
    @inject(TYPES.Timers) private readonly timers: Timers,
    @inject(TYPES.Toasts) private readonly toasts: Toasts,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
  ) {
    makeAutoObservable<ProjectsVm, 'api' | 'hosting' | 'session' | 'timers' | 'toasts' | 'logger'>(
      this,
      { api: false, hosting: false, session: false, timers: false, toasts: false, logger: false },
      { autoBind: true },
    );
  }

  get visible(): boolean {
    return this.session.status === 'signed-in';
  }

  /** Most recently edited first. */
  get cards(): ProjectCard[] {
    const now = this.timers.now();
    const sites = new Map(this.sites.map((s) => [s.project_id, s]));
    return [...this.projects]
      .sort((a, b) => Date.parse(b.updated_at) - Date.parse(a.updated_at))
      .map((p) => projectCard(p, now, sites.get(p.id) ?? null));
  }

  get renameError(): string | null {
    if (this.dialog?.kind !== 'rename') return null;
    const name = this.dialog.name.trim();
    if (name === '') return 'Enter a name.';
    return name.length > MAX_PROJECT_NAME_LENGTH ? `Use at most ${MAX_PROJECT_NAME_LENGTH} characters.` : null;
  }

  async load(): Promise<void> {
    if (!this.visible || this.loading) return;
    this.loading = true;
    this.error = null;
    try {
      // One request for every card's site, beside the list (not one per card).
      const [projects, sites] = await Promise.all([this.api.list(), this.loadSites()]);
      runInAction(() => {
        this.projects = projects;
        this.sites = sites;
        this.loaded = true;
      });
    } catch (error) {
      runInAction(() => (this.error = errorText(error, 'Your projects could not be loaded.')));
    } finally {
      runInAction(() => (this.loading = false));
    }
  }

  /** The sites, or none: without them the cards only lack their live address and picture. */
  private async loadSites(): Promise<SiteSummaryDto[]> {
    try {
      const sites: unknown = await this.hosting.sites();
      if (Array.isArray(sites)) return sites.filter(isSiteSummary);
      this.logger.warn('Sites answer is not a list');
    } catch (error) {
      this.logger.warn('Sites could not be loaded', error);
    }
    return [];
  }

  startRename(id: string): void {
    const project = this.projects.find((p) => p.id === id);
    if (project) this.openDialog({ kind: 'rename', project, name: project.name });
  }

  setName(name: string): void {
    if (this.dialog?.kind === 'rename') this.dialog = { ...this.dialog, name };
  }

  startDelete(id: string): void {
    const project = this.projects.find((p) => p.id === id);
    if (project) this.openDialog({ kind: 'delete', project });
  }

  closeDialog(): void {
    if (!this.busy) this.dialog = null;
  }

  async confirm(): Promise<void> {
    const dialog = this.dialog;
    if (dialog === null || this.busy || this.renameError !== null) return;
    this.busy = true;
    this.dialogError = null;
    try {
      if (dialog.kind === 'rename') {
        const renamed = await this.api.rename(dialog.project.id, dialog.name.trim());
        runInAction(() => (this.projects = this.projects.map((p) => (p.id === renamed.id ? renamed : p))));
      } else {
        await this.api.remove(dialog.project.id);
        runInAction(() => (this.projects = this.projects.filter((p) => p.id !== dialog.project.id)));
        this.toasts.show({ title: 'Project deleted', description: `“${dialog.project.name}” was deleted.`, variant: 'success' });
      }
      runInAction(() => (this.dialog = null));
    } catch (error) {
      runInAction(() => (this.dialogError = errorText(error, dialog.kind === 'rename' ? 'The project could not be renamed.' : 'The project could not be deleted.')));
    } finally {
      runInAction(() => (this.busy = false));
    }
  }

  private openDialog(dialog: NonNullable<Dialog>): void {
    this.dialogError = null;
    this.dialog = dialog;
  }
}

import type { ErrorScan, SelectedElement } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { type Analytics, ApiError, type BuilderPreferencesStore, type Timers, type Toasts, TYPES } from '../../app/ports';
import { type FileSaver, type Ids, type Logger, type Navigation, UI_TYPES, type WindowMessages } from '../../app/ui-ports';
import type { ProjectsApi } from '../../api/projects.api';
import type { SandboxApi, SandboxInfoDto } from '../../api/sandbox.api';
import type { FeedConnection, FeedState, SandboxFeed, SandboxFeedEvent } from '../../api/sandbox-feed';
import { BuilderPreferencesVm } from './builder-preferences';
import type { ChatHost } from './chat/chat.vm';
import { ConsoleVm } from './console.vm';
import { ElementPickerVm } from './element-picker.vm';
import { ErrorsVm } from './errors.vm';
import { FilesVm } from './files.vm';
import { FileTreeActionsVm } from './file-tree-actions.vm';
import { type ConnectionProblem, type FeedHealth, INITIAL_FEED_HEALTH, connectionProblem, nextFeedHealth } from './connection-status';
import { DEFAULT_DEVICE, type Device } from './preview';
import { SandboxSetup } from './sandbox-setup';
import { TerminalVm } from './terminal.vm';
import { ThemeBuilderVm } from './theme/theme-builder.vm';
import { VersionsVm } from './versions.vm';

export type BuilderTab = 'preview' | 'code';
export type DockTab = 'terminal' | 'console';
export type BuilderPhase = 'starting' | 'ready' | 'failed';

/** The preview token lives 1 h (docs/sandbox-api.md): ask for a fresh address before it runs out. */
export const PREVIEW_URL_MAX_AGE_MS = 50 * 60 * 1000;
/** SPEC §9 reload guard: the preview's 'auth-required' fetches a fresh address at most this often. */
export const PREVIEW_REFRESH_GUARD_MS = 10_000;

const STATUS_LABELS: Readonly<Record<string, string>> = {
  running: 'Running',
  starting: 'Starting',
  stopped: 'Stopped',
  failed: 'Failed',
};

export type StatusTone = 'success' | 'warning' | 'neutral' | 'destructive';

const errorText = (error: unknown): string => (error instanceof Error ? error.message : 'Request failed');

/**
 * /builder/:projectId. Starts the project's sandbox (SPEC §4 stage 1, with the §8 fallback),
 * then keeps the screen in step with it through the realtime feed: status line, file tree and
 * open files on files-changed, terminal output. Owns the smaller view-models of each panel.
 */
@injectable()
export class BuilderVm implements ChatHost {
  projectId = '';
  projectName = '';
  phase: BuilderPhase = 'starting';
  failure: string | null = null;
  sandbox: SandboxInfoDto | null = null;

  /** The server's warning when project code is not isolated (the builder shows it as a banner). */
  get isolationWarning(): string | null {
    if (this.sandbox?.isolated !== false) return null;
    return this.sandbox.isolation_warning ?? 'Project code is not isolated on this server.';
  }
  /** The dev server's state word and sentence (SPEC §3 sandbox status and message). */
  status = 'starting';
  statusMessage = 'Starting your sandbox';
  feedState: FeedState = 'closed';
  /** The feed's state with its history: whether the server can be heard (connection-status.ts). */
  feedHealth: FeedHealth = INITIAL_FEED_HEALTH;

  activeTab: BuilderTab = 'preview';
  device: Device = DEFAULT_DEVICE;
  fullscreen = false;
  /** Bumped to reload the preview frame. */
  previewKey = 0;
  previewUrl: string | null = null;
  dockOpen = true;
  dockTab: DockTab = 'terminal';

  readonly files: FilesVm;
  readonly fileActions: FileTreeActionsVm;
  readonly terminal: TerminalVm;
  readonly versions: VersionsVm;
  readonly console: ConsoleVm;
  readonly picker: ElementPickerVm;
  readonly errors: ErrorsVm;
  readonly preferences: BuilderPreferencesVm;
  readonly theme: ThemeBuilderVm;

  private generation = 0;
  private connection: FeedConnection | null = null;
  private previewUrlAt = 0;
  private authRefreshAt = Number.NEGATIVE_INFINITY;
  /** The project whose 'Project Opened' was sent (a retry or a second start does not send it again). */
  private openedReported: string | null = null;

  constructor(
    @inject(TYPES.SandboxApi) private readonly api: SandboxApi,
    @inject(TYPES.SandboxFeed) private readonly feed: SandboxFeed,
    @inject(TYPES.ProjectsApi) private readonly projects: ProjectsApi,
    @inject(SandboxSetup) private readonly setup: Pick<SandboxSetup, 'ensure'>,
    @inject(TYPES.Toasts) toasts: Toasts,
    @inject(TYPES.Timers) private readonly timers: Timers,
    @inject(TYPES.BuilderPreferences) preferences: BuilderPreferencesStore,
    @inject(UI_TYPES.WindowMessages) messages: WindowMessages,
    @inject(UI_TYPES.Navigation) private readonly navigation: Navigation,
    @inject(UI_TYPES.Ids) ids: Ids,
    @inject(UI_TYPES.Logger) logger: Logger,
    @inject(TYPES.Analytics) private readonly analytics: Analytics,
    @inject(UI_TYPES.FileSaver) saver: FileSaver,
  ) {
    this.files = new FilesVm(api, toasts, logger);
    this.fileActions = new FileTreeActionsVm(api, this.files, toasts, saver);
    this.terminal = new TerminalVm(api, ids, timers);
    this.versions = new VersionsVm(api, toasts, timers, logger);
    this.console = new ConsoleVm(messages, timers);
    this.picker = new ElementPickerVm(messages);
    this.errors = new ErrorsVm(api, logger, timers);
    this.preferences = new BuilderPreferencesVm(preferences);
    this.theme = new ThemeBuilderVm(api, toasts, messages, typeof window === 'undefined' ? '' : window.location.origin);
    this.console.onAuthRequired = () => void this.renewPreviewAccess();
    makeAutoObservable<
      BuilderVm,
      'api' | 'feed' | 'projects' | 'setup' | 'timers' | 'navigation' | 'generation' | 'connection' | 'previewUrlAt' | 'authRefreshAt' | 'analytics' | 'openedReported'
    >(
      this,
      {
        api: false,
        feed: false,
        projects: false,
        setup: false,
        timers: false,
        navigation: false,
        generation: false,
        connection: false,
        previewUrlAt: false,
        authRefreshAt: false,
        analytics: false,
        openedReported: false,
        files: false,
        fileActions: false,
        terminal: false,
        versions: false,
        console: false,
        picker: false,
        errors: false,
        preferences: false,
        theme: false,
      },
      { autoBind: true },
    );
  }

  // ── Life cycle ───────────────────────────────────────────────────────────────────────────

  /** Mounting the screen: start the sandbox, load the panels, listen to the feed and the preview. */
  async start(projectId: string): Promise<void> {
    this.dispose();
    const generation = ++this.generation;
    this.projectId = projectId;
    this.files.setProject(projectId);
    this.fileActions.attach({
      project: () => ({ id: this.projectId, name: this.projectName }),
      afterChange: () => this.versions.load(),
      afterRestart: () => this.reloadPreview(),
    });
    this.terminal.setProject(projectId);
    this.versions.setProject(projectId, this.afterRestore);
    this.errors.setProject(projectId);
    this.theme.setProject(projectId, () => this.versions.load());
    this.console.start();
    this.picker.start();
    void this.loadProjectName(projectId, generation);
    await this.startSandbox(generation);
  }

  /** Unmounting: the feed and the message listener stop; work still under way is ignored. */
  dispose(): void {
    this.generation += 1;
    this.connection?.close();
    this.connection = null;
    this.console.stop();
    this.picker.stop();
    this.theme.dispose();
    this.errors.stop();
  }

  /** The screen's retry after a failed start. */
  retry(): Promise<void> {
    return this.start(this.projectId);
  }

  private async loadProjectName(projectId: string, generation: number): Promise<void> {
    try {
      const project = await this.projects.get(projectId);
      if (generation !== this.generation) return;
      // SPEC §7 'Project Opened', from the builder too (issue #17); once per project, not per retry.
      if (this.openedReported !== project.id) {
        this.openedReported = project.id;
        this.analytics.track('Project Opened', { project_id: project.id, source: 'builder' });
      }
      runInAction(() => {
        this.projectName = project.name;
      });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        runInAction(() => {
          if (generation !== this.generation) return;
          this.phase = 'failed';
          this.failure = 'This project does not exist, or it is not yours.';
        });
      }
    }
  }

  private async startSandbox(generation: number): Promise<void> {
    this.phase = 'starting';
    this.failure = null;
    this.feedHealth = INITIAL_FEED_HEALTH;
    this.status = 'starting';
    this.statusMessage = 'Starting your sandbox';
    let info: SandboxInfoDto;
    try {
      info = await this.setup.ensure(this.projectId);
    } catch (error) {
      runInAction(() => {
        if (generation !== this.generation) return;
        this.phase = 'failed';
        this.failure = errorText(error);
        this.status = 'failed';
        this.statusMessage = errorText(error);
      });
      return;
    }
    if (generation !== this.generation) return;
    runInAction(() => {
      if (this.phase === 'failed') return; // the project itself is gone
      this.sandbox = info;
      this.setPreviewUrl(info.url);
      this.status = info.status;
      this.statusMessage = info.message;
      this.phase = 'ready';
    });
    if ((this.phase as BuilderPhase) !== 'ready') return;
    this.connection = this.feed.connect(this.projectId, {
      onEvent: (event) => {
        if (generation === this.generation) this.handle(event);
      },
      onState: (state) => {
        if (generation !== this.generation) return;
        runInAction(() => {
          this.feedState = state;
          this.feedHealth = nextFeedHealth(this.feedHealth, state);
        });
      },
    });
    await Promise.all([this.files.loadTree(), this.versions.load()]);
  }

  private setPreviewUrl(url: string): void {
    this.previewUrl = url === '' ? null : url;
    this.previewUrlAt = this.timers.now();
    this.console.setPreviewUrl(this.previewUrl);
    this.picker.setPreviewUrl(this.previewUrl);
  }

  /** One realtime event. */
  handle(event: SandboxFeedEvent): void {
    switch (event.type) {
      case 'status':
        this.status = event.data.status;
        this.statusMessage = event.data.message;
        if (this.previewUrl === null && event.data.url) this.setPreviewUrl(event.data.url);
        return;
      case 'files-changed':
        void this.files.onFilesChanged(event.data.paths, event.data.reason);
        if (event.data.reason === 'restore' || event.data.reason === 'command') void this.versions.load();
        // An empty folder changes no code; anything else may have fixed or broken something.
        if (event.data.reason !== 'create-directory') this.errors.onFilesChanged();
        return;
      case 'command-output':
        this.terminal.onOutput(event.data);
        return;
      case 'command-exit':
        this.terminal.onExit(event.data);
        return;
    }
  }

  /** After a restore: the tree, the open files and the preview show the restored project. */
  private async afterRestore(): Promise<void> {
    await Promise.all([this.files.loadTree(), this.files.refreshOpenFiles(), this.reloadPreview()]);
  }

  // ── Status line ──────────────────────────────────────────────────────────────────────────

  /** While the feed is down the dev server's state is unknown: 'Reconnecting…' / 'Server unreachable'. */
  get connectionProblem(): ConnectionProblem | null {
    return this.phase === 'ready' ? connectionProblem(this.feedHealth) : null;
  }

  get statusLabel(): string {
    const problem = this.connectionProblem;
    if (problem !== null) return problem.label;
    return STATUS_LABELS[this.status] ?? this.status.charAt(0).toUpperCase() + this.status.slice(1);
  }

  get statusTone(): StatusTone {
    const problem = this.connectionProblem;
    if (problem !== null) return problem.tone;
    if (this.phase === 'failed' || this.status === 'failed') return 'destructive';
    if (this.status === 'running') return 'success';
    if (this.status === 'starting' || this.phase === 'starting') return 'warning';
    return 'neutral';
  }

  /** The whole status line, as the screen shows it: 'Running · Website is running'. */
  get statusText(): string {
    return this.statusDetail ? `${this.statusLabel} · ${this.statusDetail}` : this.statusLabel;
  }

  /** The sentence after the status word: the dev server's, or what is wrong with the connection. */
  get statusDetail(): string {
    return this.connectionProblem?.message ?? this.statusMessage;
  }

  // ── Tabs, preview, dock ──────────────────────────────────────────────────────────────────

  setTab(tab: BuilderTab): void {
    this.activeTab = tab;
  }

  setDevice(device: Device): void {
    this.device = device;
  }

  /** SPEC §3 builder flag "theme dialog open". */
  get themeDialogOpen(): boolean {
    return this.theme.open;
  }

  toggleFullscreen(): void {
    this.fullscreen = !this.fullscreen;
  }

  exitFullscreen(): void {
    this.fullscreen = false;
  }

  /** Reloads the frame; an address older than the preview token's life is asked for again first. */
  async reloadPreview(): Promise<void> {
    if (this.isPreviewUrlStale()) await this.refreshPreviewUrl();
    runInAction(() => (this.previewKey += 1));
  }

  /**
   * Opens the app in a tab of its own. The preview's cookie is partitioned to the builder's
   * frame, so the new tab signs in with the address's token: a still-valid one is opened at once
   * (a popup must open within the click), an old one is asked for again first.
   */
  async openPreviewInNewTab(): Promise<void> {
    if (this.isPreviewUrlStale()) await this.refreshPreviewUrl();
    if (this.previewUrl !== null) this.navigation.openInNewWindow(this.previewUrl);
  }

  /** The preview's 401 page asked for access: a fresh address (with a new token) reloads the frame. */
  async renewPreviewAccess(): Promise<void> {
    const now = this.timers.now();
    if (now - this.authRefreshAt < PREVIEW_REFRESH_GUARD_MS) return;
    this.authRefreshAt = now;
    await this.refreshPreviewUrl();
  }

  private isPreviewUrlStale(): boolean {
    return this.projectId !== '' && this.timers.now() - this.previewUrlAt > PREVIEW_URL_MAX_AGE_MS;
  }

  private async refreshPreviewUrl(): Promise<void> {
    try {
      const info = await this.api.info(this.projectId);
      runInAction(() => {
        this.sandbox = info;
        this.setPreviewUrl(info.url);
      });
    } catch {
      // Keep the old address: the preview's cookie may still be valid.
    }
  }

  setDockTab(tab: DockTab): void {
    this.dockTab = tab;
    this.dockOpen = true;
    if (tab === 'console') this.console.markSeen();
  }

  toggleDock(): void {
    this.dockOpen = !this.dockOpen;
  }

  setDockOpen(open: boolean): void {
    this.dockOpen = open;
  }

  // ── The chat's view of the builder (ChatHost) ────────────────────────────────────────────

  /** The sandbox is up: the assistant can work on the project. */
  get ready(): boolean {
    return this.phase === 'ready';
  }

  get errorScan(): ErrorScan | null {
    return this.errors.scan;
  }

  /** A turn's find-errors result: the Problems panel shows it. */
  showScan(scan: ErrorScan): void {
    this.errors.setScan(scan);
  }

  /** A turn was kept or reverted: the tree, the open files, the versions and the preview follow. */
  async afterTurn(): Promise<void> {
    await Promise.all([this.files.loadTree(), this.files.refreshOpenFiles(), this.versions.load(), this.reloadPreview()]);
  }

  get selectedElement(): SelectedElement | null {
    return this.picker.selected;
  }

  takeSelectedElement(): SelectedElement | null {
    return this.picker.take();
  }

  clearSelectedElement(): void {
    this.picker.clear();
  }

  /** The project was renamed (the settings panel): the toolbar shows the new name. */
  setProjectName(name: string): void {
    this.projectName = name;
  }

  /** The chat tab's "View version" link. */
  showVersions(): void {
    this.preferences.setChatTab('tab2');
  }

  /** Opens the code tab on a file (an error's location, later the AI's edits). */
  async openFile(path: string): Promise<void> {
    this.activeTab = 'code';
    await this.files.open(path);
  }
}

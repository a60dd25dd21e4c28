import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { type Analytics, ApiError, type Timers, type Toasts, TYPES } from '../../app/ports';
import { type Clipboard, type Logger, UI_TYPES } from '../../app/ui-ports';
import { errorText } from '../../app/error-text';
import { relativeTime } from '../../app/relative-time';
import type { DomainDto, HostingApi, SiteStatusDto } from '../../api/hosting.api';
import { UpgradeDialogStore } from '../billing/upgrade-dialog.store';
import { ProjectDatabaseStore } from '../databases/project-database.store';
import { DomainsVm } from './domains.vm';
import { displayUrl, formatBytes, formatElapsed, safeHttpUrl, safeImageUrl, shortCommit, withVersion } from './site-display';

export type PublishTab = 'publish' | 'domains';
/**
 * idle: nothing under way. checking: the publish check runs. building: the single publish
 * request runs (the server builds, uploads and switches the release before it answers).
 * live: that request answered with the site. build-failed: 422 with the build's log.
 * failed: any other refusal or failure.
 */
export type PublishPhase = 'idle' | 'checking' | 'building' | 'live' | 'build-failed' | 'failed';
export type StepState = 'waiting' | 'active' | 'done' | 'failed' | 'skipped';
export interface PublishStep {
  readonly label: string;
  readonly state: StepState;
}

export interface ReleaseRow {
  readonly id: string;
  readonly number: number;
  /** '3 minutes ago'. */
  readonly when: string;
  /** ISO time, for the <time> element. */
  readonly at: string;
  readonly size: string;
  readonly files: number;
  readonly commit: string;
  readonly current: boolean;
  /** 'Roll back' for an older release, 'Switch to' a newer one; null for the current one or when the site is not live. */
  readonly action: 'Roll back' | 'Switch to' | null;
  readonly switching: boolean;
}

type Pending = { readonly kind: 'unpublish' } | { readonly kind: 'rollback'; readonly releaseId: string } | { readonly kind: 'screenshot' } | null;

const BUILD_FAILED = 'HOSTING.BUILD_FAILED';
/** 409: a table of the project's database has row-level security off (the server names it). */
export const DATABASE_UNSAFE = 'HOSTING.DATABASE_UNSAFE';

/** The build log of a 422 HOSTING.BUILD_FAILED reply ('' when the reply carries none). */
function buildLogOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 422 || error.code !== BUILD_FAILED) return null;
  const body = typeof error.body === 'object' && error.body !== null ? (error.body as Record<string, unknown>) : {};
  return typeof body['build_log'] === 'string' ? body['build_log'] : '';
}

/**
 * The builder's Publish button and dialog (SPEC §2, §7 "Hosted apps"): the publish check
 * (a 402 `published` opens the upgrade dialog), publishing with its progress and result (the
 * URL with Copy and Open, or the build log), the releases with Rollback, Unpublish, the
 * screenshot, and the Domains tab (DomainsVm).
 */
@injectable()
export class PublishVm {
  projectId = '';
  open = false;
  tab: PublishTab = 'publish';
  site: SiteStatusDto | null = null;
  loadingStatus = false;
  statusError: string | null = null;
  phase: PublishPhase = 'idle';
  /** The words of a failed publish or check (phase 'failed'). */
  error: string | null = null;
  buildLog: string | null = null;
  /** The plan does not allow publishing (the last check or publish was a 402). */
  limited = false;
  elapsedMs = 0;
  pending: Pending = null;
  confirmingUnpublish = false;
  /** When the screenshot shown was taken here (a new one at the same address must be fetched again). */
  private screenshotVersion: string | null = null;
  private startedAt = 0;
  private stopTicker: (() => void) | null = null;
  private generation = 0;

  readonly domains: DomainsVm;

  constructor(
    @inject(TYPES.HostingApi) private readonly api: HostingApi,
    @inject(UpgradeDialogStore) private readonly upgrade: Pick<UpgradeDialogStore, 'open' | 'openFor'>,
    @inject(UI_TYPES.Clipboard) private readonly clipboard: Clipboard,
    @inject(TYPES.Toasts) private readonly toasts: Toasts,
    @inject(TYPES.Timers) private readonly timers: Timers,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
    @inject(TYPES.Analytics) analytics: Pick<Analytics, 'track'>,
    @inject(ProjectDatabaseStore) private readonly database: Pick<ProjectDatabaseStore, 'projectId' | 'unsafeTables' | 'refresh'>,
  ) {
    this.domains = new DomainsVm(this, api, upgrade, toasts, analytics);
    makeAutoObservable<PublishVm, 'api' | 'upgrade' | 'clipboard' | 'toasts' | 'timers' | 'logger' | 'database' | 'startedAt' | 'stopTicker' | 'generation'>(
      this,
      {
        api: false,
        upgrade: false,
        clipboard: false,
        toasts: false,
        timers: false,
        logger: false,
        database: false,
        startedAt: false,
        stopTicker: false,
        generation: false,
        domains: false,
      },
      { autoBind: true },
    );
  }

  // ── Life cycle ───────────────────────────────────────────────────────────────────────────

  /** The builder opened a project: the header shows whether it is live. */
  setProject(projectId: string): void {
    if (projectId === this.projectId) return;
    this.dispose();
    this.generation += 1;
    this.projectId = projectId;
    this.site = null;
    this.phase = 'idle';
    this.error = null;
    this.buildLog = null;
    this.limited = false;
    this.open = false;
    this.confirmingUnpublish = false;
    this.screenshotVersion = null;
    this.domains.reset();
    void this.loadStatus();
  }

  dispose(): void {
    this.stopTicker?.();
    this.stopTicker = null;
  }

  /** The header's Publish: the dialog opens and asks whether the plan allows publishing. */
  async openDialog(): Promise<void> {
    this.open = true;
    this.tab = 'publish';
    this.confirmingUnpublish = false;
    if (this.phase === 'building') return; // the dialog shows the publish under way
    if (this.phase !== 'live') this.resetOutcome();
    const [allowed] = await Promise.all([this.check(), this.loadStatus(), this.refreshDatabase()]);
    // A refused plan with nothing published to manage: the upgrade dialog is all there is to see.
    if (!allowed && this.limited && !this.hasSomethingToManage) runInAction(() => (this.open = false));
  }

  closeDialog(): void {
    this.open = false;
    this.confirmingUnpublish = false;
    this.domains.cancelRemove();
  }

  setTab(tab: PublishTab): void {
    this.tab = tab;
  }

  async loadStatus(): Promise<void> {
    const projectId = this.projectId;
    if (projectId === '') return;
    const generation = this.generation;
    this.loadingStatus = true;
    this.statusError = null;
    try {
      const site = await this.api.status(projectId);
      runInAction(() => {
        if (generation === this.generation) this.site = site;
      });
    } catch (error) {
      this.logger.warn('Publish status failed', error);
      runInAction(() => {
        if (generation === this.generation) this.statusError = errorText(error, 'The publishing status could not be loaded.');
      });
    } finally {
      runInAction(() => (this.loadingStatus = false));
    }
  }

  // ── Publishing ───────────────────────────────────────────────────────────────────────────

  get isLive(): boolean {
    return this.site?.status === 'live';
  }

  get busy(): boolean {
    return this.phase === 'checking' || this.phase === 'building' || this.pending !== null;
  }

  get publishLabel(): string {
    if (this.limited) return 'Upgrade to publish';
    return this.site !== null && this.site.releases.length > 0 ? 'Publish again' : 'Publish';
  }

  /** Publishes the project's current files: the check first, then the one request that builds and serves them. */
  async publish(): Promise<void> {
    if (this.busy || this.projectId === '') return;
    if (this.limited) {
      void this.upgrade.open('published');
      return;
    }
    const generation = this.generation;
    this.resetOutcome();
    this.confirmingUnpublish = false;
    this.phase = 'checking';
    if (!(await this.check())) {
      runInAction(() => {
        if (this.phase === 'checking') this.phase = this.error === null ? 'idle' : 'failed';
        if (this.limited && !this.hasSomethingToManage) this.open = false;
      });
      return;
    }
    runInAction(() => {
      this.phase = 'building';
      this.startTicker();
    });
    try {
      const site = await this.api.publish(this.projectId);
      runInAction(() => {
        if (generation !== this.generation) return;
        this.site = site;
        this.phase = 'live';
        this.screenshotVersion = null;
      });
      if (generation === this.generation) this.toasts.show({ title: 'Your app is live', description: this.publishedUrl ?? undefined, variant: 'success' });
    } catch (error) {
      runInAction(() => {
        if (generation !== this.generation) return;
        if (this.upgrade.openFor(error, 'published')) {
          this.limited = true;
          this.phase = 'idle';
          return;
        }
        const log = buildLogOf(error);
        if (log !== null) {
          this.phase = 'build-failed';
          this.buildLog = log;
          return;
        }
        this.phase = 'failed';
        this.error = errorText(error, 'Publishing failed. Please try again.');
      });
      // The server named a table without row-level security: the warning lists them all.
      if (error instanceof ApiError && error.code === DATABASE_UNSAFE && generation === this.generation) void this.refreshDatabase();
    } finally {
      runInAction(() => this.stopTickerNow());
    }
  }

  /** The build, upload and live steps as far as they can be seen from here. */
  get steps(): PublishStep[] | null {
    const steps = (build: StepState, upload: StepState, live: StepState): PublishStep[] => [
      { label: build === 'active' ? 'Building…' : 'Build', state: build },
      { label: 'Upload', state: upload },
      { label: 'Live', state: live },
    ];
    switch (this.phase) {
      case 'building':
        return steps('active', 'waiting', 'waiting');
      case 'live':
        return steps('done', 'done', 'done');
      case 'build-failed':
        return steps('failed', 'skipped', 'skipped');
      default:
        return null;
    }
  }

  get elapsed(): string {
    return formatElapsed(this.elapsedMs);
  }

  /**
   * Tables of the project's database that anyone with the app could read or change (row-level
   * security off): the server refuses to publish while there are any (409 HOSTING.DATABASE_UNSAFE).
   */
  get unsafeTables(): string[] {
    return this.database.projectId === this.projectId ? this.database.unsafeTables : [];
  }

  // ── The live site ────────────────────────────────────────────────────────────────────────

  get publishedUrl(): string | null {
    return this.isLive ? safeHttpUrl(this.site?.published_url) : null;
  }

  get publishedHost(): string | null {
    const url = this.publishedUrl;
    return url === null ? null : displayUrl(url);
  }

  get screenshotSrc(): string | null {
    const url = safeImageUrl(this.site?.screenshot_url);
    return url === null ? null : withVersion(url, this.screenshotVersion);
  }

  get releases(): ReleaseRow[] {
    const site = this.site;
    if (site === null) return [];
    const now = this.timers.now();
    const currentNumber = site.current_release?.number ?? null;
    return site.releases.map((release) => {
      const current = release.id === site.current_release?.id;
      const action = current || site.status !== 'live' || currentNumber === null ? null : release.number < currentNumber ? 'Roll back' : 'Switch to';
      return {
        id: release.id,
        number: release.number,
        when: relativeTime(release.created_at, now),
        at: release.created_at,
        size: formatBytes(release.size_bytes),
        files: release.file_count,
        commit: shortCommit(release.commit),
        current,
        action,
        switching: this.pending?.kind === 'rollback' && this.pending.releaseId === release.id,
      };
    });
  }

  async copyUrl(): Promise<void> {
    const url = this.publishedUrl;
    if (url !== null) await this.copy(url, 'Link');
  }

  /** Copies `text`; a toast says whether it worked ("Link copied" / "Could not copy"). */
  async copy(text: string, what: string): Promise<void> {
    try {
      await this.clipboard.writeText(text);
      this.toasts.show({ title: `${what} copied`, variant: 'success' });
    } catch {
      this.toasts.show({ title: 'Could not copy', description: 'The browser did not allow it. Select the text and copy it yourself.', variant: 'error' });
    }
  }

  async rollback(releaseId: string): Promise<void> {
    const release = this.site?.releases.find((r) => r.id === releaseId);
    if (release === undefined || this.busy) return;
    this.pending = { kind: 'rollback', releaseId };
    try {
      const site = await this.api.rollback(this.projectId, releaseId);
      runInAction(() => (this.site = site));
      this.toasts.show({ title: `Release #${release.number} is live`, description: 'Visitors get this release now.', variant: 'success' });
    } catch (error) {
      this.toasts.show({ title: 'Could not switch releases', description: errorText(error), variant: 'error' });
    } finally {
      runInAction(() => (this.pending = null));
    }
  }

  askUnpublish(): void {
    this.confirmingUnpublish = true;
  }

  cancelUnpublish(): void {
    this.confirmingUnpublish = false;
  }

  async confirmUnpublish(): Promise<void> {
    if (this.busy) return;
    this.pending = { kind: 'unpublish' };
    try {
      const site = await this.api.unpublish(this.projectId);
      runInAction(() => {
        this.site = site;
        this.phase = 'idle';
        this.confirmingUnpublish = false;
      });
      this.toasts.show({ title: 'Unpublished', description: 'Your app no longer answers at its address. Its releases are kept.', variant: 'success' });
    } catch (error) {
      this.toasts.show({ title: 'Could not unpublish', description: errorText(error), variant: 'error' });
    } finally {
      runInAction(() => (this.pending = null));
    }
  }

  async takeScreenshot(): Promise<void> {
    if (this.busy || !this.isLive) return;
    this.pending = { kind: 'screenshot' };
    try {
      const shot = await this.api.takeScreenshot(this.projectId);
      runInAction(() => {
        if (this.site !== null) this.site = { ...this.site, screenshot_url: shot.screenshot_url };
        this.screenshotVersion = shot.taken_at;
      });
    } catch (error) {
      this.toasts.show({ title: 'Could not take a screenshot', description: errorText(error), variant: 'error' });
    } finally {
      runInAction(() => (this.pending = null));
    }
  }

  // ── DomainsHost ──────────────────────────────────────────────────────────────────────────

  setSite(site: SiteStatusDto): void {
    this.site = site;
  }

  putDomain(domain: DomainDto): void {
    const site = this.site ?? emptySite(this.projectId);
    const exists = site.domains.some((d) => d.domain === domain.domain);
    this.site = { ...site, domains: exists ? site.domains.map((d) => (d.domain === domain.domain ? domain : d)) : [...site.domains, domain] };
  }

  // ── Internals ────────────────────────────────────────────────────────────────────────────

  private get hasSomethingToManage(): boolean {
    const site = this.site;
    return site !== null && (site.status === 'live' || site.releases.length > 0 || site.domains.length > 0);
  }

  /** GET publish-check: true when allowed; a 402 opens the upgrade dialog; other failures set `error`. */
  private async check(): Promise<boolean> {
    try {
      await this.api.publishCheck(this.projectId);
      runInAction(() => (this.limited = false));
      return true;
    } catch (error) {
      runInAction(() => {
        if (this.upgrade.openFor(error, 'published')) {
          this.limited = true;
          return;
        }
        this.error = errorText(error, 'Error checking subscription limits. Please try again.');
      });
      return false;
    }
  }

  /** Fresh database facts for the warning; a failed check shows no warning (the server still decides). */
  private async refreshDatabase(): Promise<void> {
    if (this.database.projectId === this.projectId && this.projectId !== '') await this.database.refresh();
  }

  private resetOutcome(): void {
    this.phase = 'idle';
    this.error = null;
    this.buildLog = null;
  }

  private startTicker(): void {
    this.stopTickerNow();
    this.startedAt = this.timers.now();
    this.elapsedMs = 0;
    this.stopTicker = this.timers.every(1000, () => runInAction(() => (this.elapsedMs = this.timers.now() - this.startedAt)));
  }

  private stopTickerNow(): void {
    if (this.stopTicker !== null) this.elapsedMs = this.timers.now() - this.startedAt;
    this.stopTicker?.();
    this.stopTicker = null;
  }
}

function emptySite(projectId: string): SiteStatusDto {
  return { project_id: projectId, status: 'never_published', slug: null, published_url: null, region: 'sin', current_release: null, releases: [], domains: [], screenshot_url: null };
}

import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { ApiError, type Timers, TYPES } from '../../app/ports';
import { type BrowserEnvironment, UI_TYPES } from '../../app/ui-ports';
import { errorText } from '../../app/error-text';
import { relativeTime } from '../../app/relative-time';
import type { HostingApi } from '../../api/hosting.api';
import { displayUrl, safeHttpUrl, safeImageUrl } from './site-display';

export interface ShownSite {
  readonly name: string;
  readonly url: string;
  /** 'chores.apps.localhost:3000'. */
  readonly host: string;
  readonly screenshotUrl: string | null;
  /** 'Published 2 hours ago'. */
  readonly published: string;
  readonly publishedAt: string;
  /** The iframe's sandbox tokens (see frameSandbox). */
  readonly sandbox: string;
}

export type PreviewState =
  | { readonly kind: 'loading' }
  | { readonly kind: 'found'; readonly site: ShownSite }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'error'; readonly message: string };

/**
 * The published app runs in an iframe with scripts, forms and popups, and with its own origin
 * (allow-same-origin) so its storage and fetches work as they do at its address. That is safe
 * only because a published site lives on another origin than Kiln's ({slug}.apps.…): the
 * sandbox cannot reach Kiln's page or cookies. Should the site ever share Kiln's origin, the
 * combination would let it lift its own sandbox, so allow-same-origin is left out then.
 */
export function frameSandbox(siteUrl: string, kilnOrigin: string): string {
  const tokens = ['allow-scripts', 'allow-forms', 'allow-popups'];
  let sameOrigin = true;
  try {
    sameOrigin = new URL(siteUrl).origin === new URL(kilnOrigin).origin;
  } catch {
    sameOrigin = true;
  }
  return (sameOrigin ? tokens : ['allow-scripts', 'allow-same-origin', 'allow-forms', 'allow-popups']).join(' ');
}

/** /project-preview/{slug}: a published app as anyone may see it (public, SPEC §6). */
@injectable()
export class ProjectPreviewVm {
  slug = '';
  state: PreviewState = { kind: 'loading' };
  private generation = 0;

  constructor(
    @inject(TYPES.HostingApi) private readonly api: HostingApi,
    @inject(TYPES.Timers) private readonly timers: Timers,
    @inject(UI_TYPES.Environment) private readonly environment: BrowserEnvironment,
  ) {
    makeAutoObservable<ProjectPreviewVm, 'api' | 'timers' | 'environment' | 'generation'>(
      this,
      { api: false, timers: false, environment: false, generation: false },
      { autoBind: true },
    );
  }

  async load(slug: string): Promise<void> {
    const generation = ++this.generation;
    this.slug = slug;
    this.state = { kind: 'loading' };
    // A slug is a DNS label (case does not matter): anything else names no site, and is not sent anywhere.
    const label = slug.toLowerCase();
    if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label)) {
      this.state = { kind: 'not-found' };
      return;
    }
    try {
      const site = await this.api.publicSite(label);
      const url = safeHttpUrl(site.url);
      runInAction(() => {
        if (generation !== this.generation) return;
        if (url === null) {
          this.state = { kind: 'not-found' };
          return;
        }
        this.state = {
          kind: 'found',
          site: {
            name: site.name,
            url,
            host: displayUrl(url),
            screenshotUrl: safeImageUrl(site.screenshot_url),
            published: `Published ${relativeTime(site.published_at, this.timers.now())}`,
            publishedAt: site.published_at,
            sandbox: frameSandbox(url, this.environment.origin),
          },
        };
      });
    } catch (error) {
      runInAction(() => {
        if (generation !== this.generation) return;
        this.state =
          error instanceof ApiError && error.status === 404
            ? { kind: 'not-found' }
            : { kind: 'error', message: errorText(error, 'This app could not be loaded.') };
      });
    }
  }

  retry(): Promise<void> {
    return this.load(this.slug);
  }
}

/*
 * /project-preview/{slug} (SPEC §2, public): a published app with its name, screenshot and a
 * link, and the app itself in a frame. Names the end-to-end tests rely on: heading = the app's
 * name; link "Open app"; image "Screenshot of <name>"; iframe title "<name>, live"; for an
 * unknown slug the heading "This app is not published".
 */
import { ExternalLink, RotateCw } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { type ReactNode, useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { Button, ButtonLink } from '../../ui/button';
import { LogoMark } from '../../ui/logo';
import { Skeleton } from '../../ui/skeleton';
import { useVm } from '../../use-vm';
import { ProjectPreviewVm, type ShownSite } from './project-preview.vm';

export const ProjectPreviewView = observer(function ProjectPreviewView() {
  const { slug = '' } = useParams();
  const vm = useVm(ProjectPreviewVm);
  useEffect(() => {
    void vm.load(slug);
  }, [vm, slug]);

  const state = vm.state;
  switch (state.kind) {
    case 'loading':
      return (
        <div className="flex h-dvh flex-col" aria-busy="true">
          <div className="flex h-16 items-center gap-3 border-b border-border px-4">
            <Skeleton className="h-10 w-16 rounded-md" />
            <Skeleton className="h-5 w-40" />
          </div>
          <Skeleton className="m-4 flex-1 rounded-xl" />
        </div>
      );
    case 'found':
      return <PublishedSite site={state.site} />;
    case 'not-found':
      return (
        <Message title="This app is not published">
          There is no published app at <span className="font-mono text-foreground">{vm.slug}</span>. Its owner may have unpublished it, or the address is mistyped.
        </Message>
      );
    case 'error':
      return (
        <Message
          title="This app could not be loaded"
          action={
            <Button variant="outline" onClick={() => void vm.retry()}>
              <RotateCw aria-hidden /> Try again
            </Button>
          }
        >
          {state.message}
        </Message>
      );
  }
});

function PublishedSite({ site }: { site: ShownSite }) {
  return (
    <div className="flex h-dvh flex-col">
      <header className="flex shrink-0 flex-wrap items-center gap-x-4 gap-y-2 border-b border-border bg-background px-4 py-3">
        {site.screenshotUrl !== null && (
          <img src={site.screenshotUrl} alt={`Screenshot of ${site.name}`} className="aspect-video h-10 shrink-0 rounded-md border border-border object-cover object-top sm:h-12" />
        )}
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-base font-semibold tracking-tight" title={site.name}>
            {site.name}
          </h1>
          <p className="truncate text-xs text-muted-foreground">
            <span className="font-mono">{site.host}</span> ·{' '}
            <time dateTime={site.publishedAt} title={site.publishedAt}>
              {site.published}
            </time>
          </p>
        </div>
        <a
          href={site.url}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex h-9 items-center gap-2 rounded-lg bg-brand px-3.5 text-sm font-medium text-brand-foreground shadow-sm hover:bg-brand/90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          <ExternalLink className="size-4" aria-hidden /> Open app
        </a>
      </header>
      {/* The app on its own origin; frameSandbox (project-preview.vm.ts) explains the tokens. */}
      <iframe
        title={`${site.name}, live`}
        src={site.url}
        sandbox={site.sandbox}
        referrerPolicy="no-referrer"
        className="min-h-0 w-full flex-1 border-0 bg-white"
      />
    </div>
  );
}

function Message({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center bg-muted/40 px-4 text-center">
      <LogoMark className="size-10 opacity-80" />
      <h1 className="mt-6 text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="mt-2 max-w-md text-muted-foreground">{children}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        {action}
        <ButtonLink to="/" variant="ghost">
          Go to Kiln
        </ButtonLink>
      </div>
    </div>
  );
}

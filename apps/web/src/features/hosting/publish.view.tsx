/*
 * The builder's Publish button and dialog (SPEC §2, §7). Accessible names the end-to-end tests
 * rely on: toolbar button "Publish" (while a publish runs: "Publishing…"); dialog "Publish your
 * app" with tabs "Publish" and "Domains"; button "Publish" / "Publish again" / "Upgrade to
 * publish"; list "Publish progress"; link "Open" and button "Copy link" by the address (a link
 * named by the address itself); region "Build log"; list "Releases" whose items have a
 * "Current" badge or a "Roll back"/"Switch to" button named "Roll back to release #N" /
 * "Switch to release #N"; "Unpublish" then "Yes, unpublish"; "Take screenshot" and the image
 * "Screenshot of your published app". The Domains tab's names are in domains.view.tsx.
 */
import { Camera, Check, Circle, Copy, ExternalLink, Minus, Rocket, X } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { cn } from '../../ui/cn';
import { Dialog } from '../../ui/dialog';
import { Spinner } from '../../ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/tabs';
import { Tooltip } from '../../ui/tooltip';
import { UnsafeTablesText } from '../databases/database.view';
import { DomainsTab } from './domains.view';
import type { PublishStep, PublishTab, PublishVm, ReleaseRow } from './publish.vm';

export const PublishButton = observer(function PublishButton({ vm }: { vm: PublishVm }) {
  const building = vm.phase === 'building';
  return (
    <Tooltip content={vm.publishedHost === null ? 'Put your app on the web' : `Live at ${vm.publishedHost}`}>
      <Button size="sm" variant="brand" aria-haspopup="dialog" aria-expanded={vm.open} onClick={() => void vm.openDialog()} className="h-8 gap-1.5 px-2.5">
        {building ? <Spinner className="size-4" /> : <Rocket aria-hidden />}
        <span className="max-sm:sr-only">{building ? 'Publishing…' : 'Publish'}</span>
        {vm.isLive && !building && <span aria-hidden className="size-1.5 rounded-full bg-brand-foreground" />}
      </Button>
    </Tooltip>
  );
});

export const PublishDialog = observer(function PublishDialog({ vm }: { vm: PublishVm }) {
  return (
    <Dialog
      open={vm.open}
      onClose={vm.closeDialog}
      title="Publish your app"
      icon={<Rocket className="size-5" aria-hidden />}
      description="Anyone with the address can open the published app. Publishing builds your project's current files."
      className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto"
    >
      <Tabs value={vm.tab} onValueChange={(value) => vm.setTab(value as PublishTab)}>
        <TabsList aria-label="Publishing">
          <TabsTrigger value="publish">Publish</TabsTrigger>
          <TabsTrigger value="domains">Domains</TabsTrigger>
        </TabsList>
        <TabsContent value="publish" className="mt-5 grid gap-5">
          <PublishTabContent vm={vm} />
        </TabsContent>
        <TabsContent value="domains" className="mt-5">
          <DomainsTab vm={vm.domains} live={vm.isLive} />
        </TabsContent>
      </Tabs>
    </Dialog>
  );
});

const SITE_STATUS = {
  live: { label: 'Live', tone: 'success' },
  unpublished: { label: 'Unpublished', tone: 'outline' },
  never_published: { label: 'Not published yet', tone: 'outline' },
} as const;

const PublishTabContent = observer(function PublishTabContent({ vm }: { vm: PublishVm }) {
  const site = vm.site;
  const status = site === null ? null : (SITE_STATUS[site.status] ?? SITE_STATUS.never_published);
  const working = vm.phase === 'checking' || vm.phase === 'building';
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="brand" onClick={() => void vm.publish()} loading={working} disabled={vm.busy && !working}>
          {!working && <Rocket aria-hidden />}
          {vm.publishLabel}
        </Button>
        {vm.isLive && !vm.confirmingUnpublish && (
          <Button variant="outline" onClick={vm.askUnpublish} disabled={vm.busy} className="hover:text-destructive">
            Unpublish
          </Button>
        )}
        {status !== null && (
          <Badge tone={status.tone} className="ml-auto">
            {status.label}
          </Badge>
        )}
        {vm.loadingStatus && site === null && <Spinner label="Loading publishing status" />}
      </div>

      {vm.unsafeTables.length > 0 && (
        <Alert tone="destructive" title="Tables without row-level security">
          <UnsafeTablesText tables={vm.unsafeTables} /> Ask the assistant to turn it on, or open Database to see the tables.
        </Alert>
      )}

      {vm.confirmingUnpublish && (
        <div role="group" aria-label="Unpublish this app?" className="grid gap-3 rounded-xl border border-destructive/30 bg-destructive-soft p-4">
          <p className="text-sm">
            <span className="font-semibold">Unpublish this app?</span> Its address stops answering. The releases are kept, so you can publish or roll back later.
          </p>
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="ghost" size="sm" onClick={vm.cancelUnpublish} disabled={vm.pending?.kind === 'unpublish'}>
              Cancel
            </Button>
            <Button variant="destructive" size="sm" onClick={() => void vm.confirmUnpublish()} loading={vm.pending?.kind === 'unpublish'}>
              Yes, unpublish
            </Button>
          </div>
        </div>
      )}

      {vm.steps !== null && <Progress steps={vm.steps} elapsed={vm.phase === 'building' ? vm.elapsed : vm.phase === 'live' ? `in ${vm.elapsed}` : null} />}

      {vm.phase === 'build-failed' && (
        <div className="grid gap-3">
          <Alert tone="destructive" title="The build failed">
            Nothing was published and no credits were charged{vm.isLive ? '; your live app is unchanged' : ''}. Fix the errors in the log (or ask the
            assistant to), then publish again.
          </Alert>
          <pre
            role="region"
            aria-label="Build log"
            tabIndex={0}
            className="max-h-72 overflow-auto rounded-lg border border-border bg-muted/60 p-3 font-mono text-xs leading-relaxed whitespace-pre focus-visible:outline-2 focus-visible:outline-ring"
          >
            {vm.buildLog === '' ? 'The build wrote no log.' : vm.buildLog}
          </pre>
        </div>
      )}

      {vm.error !== null && (
        <Alert tone="destructive" title="Not published">
          {vm.error}
        </Alert>
      )}
      {vm.statusError !== null && (
        <Alert
          tone="destructive"
          title="The publishing status could not be loaded"
          action={
            <Button variant="outline" size="sm" onClick={() => void vm.loadStatus()}>
              Try again
            </Button>
          }
        >
          {vm.statusError}
        </Alert>
      )}

      {vm.publishedUrl !== null && <LiveSite vm={vm} url={vm.publishedUrl} host={vm.publishedHost ?? vm.publishedUrl} />}

      {vm.releases.length > 0 && <Releases vm={vm} rows={vm.releases} />}
    </>
  );
});

const STEP_ICON = {
  waiting: <Circle className="size-4 text-muted-foreground" aria-hidden />,
  active: <Spinner className="size-4 text-brand" />,
  done: <Check className="size-4 text-success" aria-hidden />,
  failed: <X className="size-4 text-destructive" aria-hidden />,
  skipped: <Minus className="size-4 text-muted-foreground" aria-hidden />,
} as const;

const STEP_WORDS = { waiting: 'waiting', active: 'in progress', done: 'done', failed: 'failed', skipped: 'not reached' } as const;

function Progress({ steps, elapsed }: { steps: readonly PublishStep[]; elapsed: string | null }) {
  return (
    <div className="grid gap-2 rounded-xl border border-border p-4">
      <ol aria-label="Publish progress" className="flex flex-wrap items-center gap-x-5 gap-y-2">
        {steps.map((step) => (
          <li key={step.label} className={cn('flex items-center gap-2 text-sm', step.state === 'waiting' || step.state === 'skipped' ? 'text-muted-foreground' : 'font-medium')}>
            {STEP_ICON[step.state]}
            {step.label}
            <span className="sr-only">({STEP_WORDS[step.state]})</span>
          </li>
        ))}
        {elapsed !== null && (
          <li aria-label="Elapsed time" className="ml-auto text-xs text-muted-foreground tabular-nums">
            {elapsed}
          </li>
        )}
      </ol>
      {steps[0]?.state === 'active' && (
        <p className="text-xs text-muted-foreground">Kiln builds your app in its sandbox, uploads the build and switches your address to it. The steps finish together.</p>
      )}
    </div>
  );
}

const LiveSite = observer(function LiveSite({ vm, url, host }: { vm: PublishVm; url: string; host: string }) {
  const shooting = vm.pending?.kind === 'screenshot';
  return (
    <section aria-label="Your app's address" className="grid gap-4 rounded-xl border border-success/30 bg-success-soft/40 p-4 sm:grid-cols-[1fr_auto]">
      <div className="grid min-w-0 content-start gap-3">
        <p className="text-sm font-medium">Your app is live at</p>
        <a href={url} target="_blank" rel="noopener noreferrer" className="truncate font-mono text-sm text-brand underline-offset-4 hover:underline" title={url}>
          {host}
        </a>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={() => void vm.copyUrl()} aria-label="Copy link">
            <Copy aria-hidden /> Copy
          </Button>
          <a
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex h-8 items-center gap-2 rounded-lg border border-input bg-background px-3 text-sm font-medium shadow-xs hover:bg-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring dark:bg-input/20"
          >
            <ExternalLink className="size-4" aria-hidden /> Open
          </a>
          <Button variant="ghost" size="sm" onClick={() => void vm.takeScreenshot()} loading={shooting} disabled={vm.busy && !shooting}>
            {!shooting && <Camera aria-hidden />}
            Take screenshot
          </Button>
        </div>
      </div>
      {vm.screenshotSrc !== null && (
        <img
          src={vm.screenshotSrc}
          alt="Screenshot of your published app"
          className="aspect-video w-full rounded-lg border border-border bg-background object-cover object-top sm:w-48"
        />
      )}
    </section>
  );
});

const Releases = observer(function Releases({ vm, rows }: { vm: PublishVm; rows: readonly ReleaseRow[] }) {
  return (
    <section className="grid gap-2">
      <h3 className="text-sm font-medium">Releases</h3>
      <ul aria-label="Releases" className="divide-y divide-border rounded-xl border border-border">
        {rows.map((row) => (
          <li key={row.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 text-sm">
            <span className="font-semibold tabular-nums">#{row.number}</span>
            {row.current && <Badge tone="success">Current</Badge>}
            <time dateTime={row.at} title={row.at} className="text-muted-foreground">
              {row.when}
            </time>
            <span className="text-muted-foreground">
              {row.size} · {row.files === 1 ? '1 file' : `${row.files} files`}
            </span>
            <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs" title={`Built from commit ${row.commit}`}>
              {row.commit}
            </code>
            {row.action !== null && (
              <Button
                variant="outline"
                size="sm"
                className="ml-auto"
                onClick={() => void vm.rollback(row.id)}
                loading={row.switching}
                disabled={vm.busy && !row.switching}
                aria-label={row.action === 'Roll back' ? `Roll back to release #${row.number}` : `Switch to release #${row.number}`}
              >
                {row.action}
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
});

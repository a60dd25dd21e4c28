import { Globe, Pencil, Trash2 } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { type FormEvent, useEffect, useId } from 'react';
import { Link } from 'react-router-dom';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { Input } from '../../ui/input';
import { Label } from '../../ui/label';
import { Skeleton } from '../../ui/skeleton';
import { useVm } from '../../use-vm';
import { type ProjectCard, ProjectsVm } from './projects.vm';

/** The signed-in person's projects under the idea box: open, rename, delete. */
export const ProjectsSection = observer(function ProjectsSection() {
  const vm = useVm(ProjectsVm);
  const headingId = useId();
  const visible = vm.visible;
  useEffect(() => {
    if (visible) void vm.load();
  }, [vm, visible]);
  if (!visible) return null;

  return (
    <section aria-labelledby={headingId} className="mx-auto w-full max-w-6xl px-4 pb-20 sm:px-6">
      <div className="flex items-baseline justify-between gap-4">
        <h2 id={headingId} className="text-xl font-semibold tracking-tight">
          Your projects
        </h2>
        {vm.loaded && vm.cards.length > 0 && <p className="text-sm text-muted-foreground">{vm.cards.length === 1 ? '1 project' : `${vm.cards.length} projects`}</p>}
      </div>
      {vm.error !== null ? (
        <div role="alert" className="mt-4 flex flex-wrap items-center gap-3 text-sm text-destructive">
          {vm.error}
          <Button variant="outline" size="sm" onClick={() => void vm.load()}>
            Try again
          </Button>
        </div>
      ) : !vm.loaded ? (
        <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-20 rounded-xl" />
          ))}
        </div>
      ) : vm.cards.length === 0 ? (
        <p className="mt-4 rounded-xl border border-dashed border-border px-4 py-8 text-center text-sm text-muted-foreground">
          No projects yet. Describe an app above and Kiln builds it.
        </p>
      ) : (
        <ul className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {vm.cards.map((card) => (
            <ProjectItem key={card.id} card={card} onRename={() => vm.startRename(card.id)} onDelete={() => vm.startDelete(card.id)} />
          ))}
        </ul>
      )}
      <ProjectDialogs vm={vm} />
    </section>
  );
});

function ProjectItem({ card, onRename, onDelete }: { card: ProjectCard; onRename: () => void; onDelete: () => void }) {
  return (
    <li className="group relative flex min-w-0 flex-col overflow-hidden rounded-xl border border-border bg-card shadow-xs transition-[border-color,box-shadow] focus-within:border-ring hover:border-foreground/20 hover:shadow-sm">
      {card.thumbnail !== null && (
        // Decorative: the card's link names the project.
        <img src={card.thumbnail} alt="" loading="lazy" className="aspect-video w-full border-b border-border bg-muted object-cover object-top" />
      )}
      <div className="flex min-w-0 items-start justify-between gap-3 p-5">
        <div className="min-w-0">
          <Link to={card.href} className="block truncate font-medium after:absolute after:inset-0 after:rounded-xl focus-visible:outline-none" title={card.name}>
            {card.name}
          </Link>
          <p className="mt-1 text-sm text-muted-foreground">{card.edited}</p>
          {card.published && (
            <p className="mt-2 flex min-w-0 items-center gap-2 text-sm">
              <Badge tone="success" className="shrink-0">
                <Globe aria-hidden /> Live
              </Badge>
              {card.liveUrl !== null && card.liveHost !== null && (
                // Above the card-wide link, so it opens the site rather than the builder.
                <a href={card.liveUrl} target="_blank" rel="noopener noreferrer" className="relative z-10 truncate font-mono text-xs text-muted-foreground hover:text-foreground hover:underline" title={card.liveUrl}>
                  {card.liveHost}
                </a>
              )}
            </p>
          )}
        </div>
        {/* Above the card-wide link, so they stay clickable. */}
        <div className="relative z-10 -mt-1 -mr-2 flex shrink-0 gap-0.5">
          <Button variant="ghost" size="icon-sm" onClick={onRename} aria-label={`Rename ${card.name}`} title="Rename">
            <Pencil />
          </Button>
          <Button variant="ghost" size="icon-sm" onClick={onDelete} aria-label={`Delete ${card.name}`} title="Delete" className="hover:text-destructive">
            <Trash2 />
          </Button>
        </div>
      </div>
    </li>
  );
}

const ProjectDialogs = observer(function ProjectDialogs({ vm }: { vm: ProjectsVm }) {
  const nameId = useId();
  const dialog = vm.dialog;
  const error =
    vm.dialogError === null ? null : (
      <p role="alert" className="text-sm text-destructive">
        {vm.dialogError}
      </p>
    );
  if (dialog?.kind === 'rename') {
    const submit = (event: FormEvent) => {
      event.preventDefault();
      void vm.confirm();
    };
    return (
      <Dialog
        open
        onClose={vm.closeDialog}
        locked={vm.busy}
        title="Rename project"
        footer={
          <>
            <Button variant="ghost" onClick={vm.closeDialog} disabled={vm.busy}>
              Cancel
            </Button>
            <Button type="submit" form={`${nameId}-form`} loading={vm.busy} disabled={vm.renameError !== null}>
              Save
            </Button>
          </>
        }
      >
        <form id={`${nameId}-form`} onSubmit={submit} className="grid gap-2">
          <Label htmlFor={nameId}>Name</Label>
          <Input id={nameId} value={dialog.name} onChange={(e) => vm.setName(e.target.value)} aria-invalid={vm.renameError !== null || undefined} data-autofocus />
          {vm.renameError !== null && <p className="text-sm text-destructive">{vm.renameError}</p>}
          {error}
        </form>
      </Dialog>
    );
  }
  return (
    <Dialog
      open={dialog?.kind === 'delete'}
      onClose={vm.closeDialog}
      locked={vm.busy}
      title={`Delete “${dialog?.project.name ?? ''}”?`}
      description="The project leaves your list and no longer counts towards your plan’s project limit. Its published site is taken down, and its database is deleted with all its data."
      footer={
        <>
          <Button variant="ghost" onClick={vm.closeDialog} disabled={vm.busy} data-autofocus>
            Keep it
          </Button>
          <Button variant="destructive" loading={vm.busy} onClick={() => void vm.confirm()}>
            Delete project
          </Button>
        </>
      }
    >
      {error}
    </Dialog>
  );
});

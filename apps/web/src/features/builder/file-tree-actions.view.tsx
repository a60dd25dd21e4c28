import { Download, Eraser, FilePlus, FolderPlus, Pencil, RotateCw, Trash2 } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import type { FormEvent } from 'react';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { Input } from '../../ui/input';
import { Label } from '../../ui/label';
import { Spinner } from '../../ui/spinner';
import { Tooltip } from '../../ui/tooltip';
import type { FileTreeActionsVm } from './file-tree-actions.vm';
import type { TreeRow } from './files.vm';

const iconButton =
  'inline-flex size-7 shrink-0 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50';

/** The tree's header buttons: new file and folder at the root, restart, clean up, export. */
export const FileTreeToolbar = observer(function FileTreeToolbar({ actions }: { actions: FileTreeActionsVm }) {
  const buttons = [
    { label: 'New file', icon: FilePlus, run: () => actions.startNewFile(), busy: false },
    { label: 'New folder', icon: FolderPlus, run: () => actions.startNewFolder(), busy: false },
    { label: 'Restart dev server', icon: RotateCw, run: () => void actions.restartDevServer(), busy: actions.restarting },
    { label: 'Clean up build files and caches', icon: Eraser, run: () => void actions.cleanUp(), busy: actions.cleaning },
    { label: 'Export as zip', icon: Download, run: () => void actions.exportZip(), busy: actions.exporting },
  ];
  return (
    <div className="ml-auto flex items-center gap-0.5" role="toolbar" aria-label="File actions">
      {buttons.map(({ label, icon: Icon, run, busy }) => (
        <Tooltip key={label} content={label}>
          <button type="button" aria-label={label} className={iconButton} onClick={run} disabled={busy}>
            {busy ? <Spinner className="size-3.5" /> : <Icon className="size-3.5" aria-hidden />}
          </button>
        </Tooltip>
      ))}
    </div>
  );
});

/** A row's own actions, shown on hover and focus: rename and delete (and new file inside a folder). */
export function FileRowActions({ row, actions }: { row: TreeRow; actions: FileTreeActionsVm }) {
  const { path, name, type } = row.entry;
  // Clicks here never open the file or toggle the folder.
  const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();
  return (
    <span className="ml-auto hidden items-center gap-0.5 group-focus-within:flex group-hover:flex" onClick={stop} onKeyDown={stop}>
      {type === 'directory' && (
        <button type="button" tabIndex={-1} aria-label={`New file in ${name}`} className={iconButton} onClick={() => actions.startNewFile(path)}>
          <FilePlus className="size-3.5" aria-hidden />
        </button>
      )}
      <button type="button" tabIndex={-1} aria-label={`Rename ${name}`} className={iconButton} onClick={() => actions.startRename(path, type)}>
        <Pencil className="size-3.5" aria-hidden />
      </button>
      <button type="button" tabIndex={-1} aria-label={`Delete ${name}`} className={iconButton} onClick={() => actions.startDelete(path, type)}>
        <Trash2 className="size-3.5" aria-hidden />
      </button>
    </span>
  );
}

const TITLES = { 'new-file': 'New file', 'new-folder': 'New folder', rename: 'Rename', delete: 'Delete' } as const;

/** The one dialog of the file tree's actions: a name to type, or a deletion to confirm. */
export const FileActionDialog = observer(function FileActionDialog({ actions }: { actions: FileTreeActionsVm }) {
  const dialog = actions.dialog;
  const kind = dialog?.kind ?? 'new-file';
  const deleting = dialog?.kind === 'delete';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void actions.confirm();
  };
  const where = dialog === null ? '' : 'parent' in dialog ? (dialog.parent === '.' ? 'the project' : dialog.parent) : dialog.path;
  return (
    <Dialog
      open={dialog !== null}
      onClose={actions.cancel}
      locked={actions.busy}
      title={deleting ? `Delete ${dialog.type === 'directory' ? 'folder' : 'file'}?` : TITLES[kind]}
      icon={deleting ? <Trash2 className="size-5" aria-hidden /> : undefined}
      description={
        deleting ? (
          <>
            <strong className="text-foreground">{where}</strong> {dialog.type === 'directory' ? 'and everything in it ' : ''}will be deleted. A version is saved, so you can
            restore it from Versions.
          </>
        ) : kind === 'rename' ? (
          <>Type a new name or path inside the project.</>
        ) : (
          <>Inside {where}. Use / to make folders.</>
        )
      }
      footer={
        <>
          <Button variant="outline" onClick={actions.cancel} disabled={actions.busy} data-autofocus={deleting ? true : undefined}>
            Cancel
          </Button>
          <Button type="submit" form="file-action-form" variant={deleting ? 'destructive' : 'brand'} loading={actions.busy}>
            {deleting ? 'Delete' : kind === 'rename' ? 'Rename' : 'Create'}
          </Button>
        </>
      }
    >
      <form id="file-action-form" onSubmit={submit} className="grid gap-2">
        {!deleting && (
          <>
            <Label htmlFor="file-action-name">{kind === 'rename' ? 'New path' : 'Name'}</Label>
            <Input
              id="file-action-name"
              data-autofocus
              autoComplete="off"
              spellCheck={false}
              value={actions.name}
              placeholder={kind === 'new-folder' ? 'components' : 'Component.tsx'}
              onChange={(event) => actions.setName(event.target.value)}
              aria-invalid={actions.error !== null}
              aria-describedby={actions.error === null ? undefined : 'file-action-error'}
            />
          </>
        )}
        {actions.error !== null && (
          <p id="file-action-error" role="alert" className="text-sm text-destructive">
            {actions.error}
          </p>
        )}
      </form>
    </Dialog>
  );
});

/*
 * The builder's settings panel (SPEC §2): opened from the project's name in the toolbar.
 * Accessible names the end-to-end tests rely on: toolbar button "Project settings <name>" (it shows the
 * project's name); dialog "Project settings"; textbox "Project name" and button "Save name";
 * textbox "Type the project's name to delete it" and button "Delete project"; textbox
 * "Repository URL", checkbox "Replace this project's files" and button "Import repository".
 */
import { GitBranch, Settings2, Trash2 } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import type { FormEvent } from 'react';
import { Alert } from '../../../ui/alert';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { Input } from '../../../ui/input';
import { Field } from '../../../ui/label';
import { Spinner } from '../../../ui/spinner';
import type { ProjectSettingsVm } from './project-settings.vm';
import type { RepositoryImportVm } from './repository-import.vm';

export const ProjectSettingsDialog = observer(function ProjectSettingsDialog({ vm, importer }: { vm: ProjectSettingsVm; importer: RepositoryImportVm }) {
  const project = vm.project;
  const onSave = (event: FormEvent) => {
    event.preventDefault();
    void vm.save();
  };
  const onImport = (event: FormEvent) => {
    event.preventDefault();
    void importer.importRepository();
  };
  const onDelete = (event: FormEvent) => {
    event.preventDefault();
    void vm.remove();
  };
  return (
    <Dialog open={vm.open} onClose={vm.close} locked={vm.busy !== null || importer.importing} title="Project settings" icon={<Settings2 className="size-5" aria-hidden />} className="max-w-lg">
      <div className="grid gap-6">
        {vm.loading && <Spinner label="Loading the project" />}
        {vm.error !== null && (
          <Alert tone="destructive" title="Something went wrong">
            {vm.error}
          </Alert>
        )}
        {project !== null && (
          <>
            <form onSubmit={onSave} className="grid gap-3">
              <Field label="Project name" htmlFor="project-settings-name" hint={vm.nameError ?? undefined}>
                <div className="flex gap-2">
                  <Input id="project-settings-name" value={vm.name} aria-invalid={vm.nameError !== null} onChange={(event) => vm.setName(event.target.value)} />
                  <Button type="submit" variant="outline" disabled={!vm.canSave} loading={vm.busy === 'saving'}>
                    Save name
                  </Button>
                </div>
              </Field>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                <dt className="text-muted-foreground">Address name</dt>
                <dd className="truncate font-mono text-xs leading-5">{project.slug}</dd>
                <dt className="text-muted-foreground">Published</dt>
                <dd className="truncate">{project.domain ?? 'Not published'}</dd>
                <dt className="text-muted-foreground">Created</dt>
                <dd>{new Date(project.created_at).toLocaleDateString()}</dd>
              </dl>
            </form>
            <form onSubmit={onImport} className="grid gap-3 rounded-lg border p-4">
              <div>
                <h3 className="text-sm font-semibold">Import a repository</h3>
                <p className="mt-1 text-sm text-muted-foreground">
                  A public https repository replaces this project's files. The files it replaces stay in Versions.
                </p>
              </div>
              {importer.error !== null && (
                <Alert tone="destructive" title="Import failed">
                  {importer.error}
                </Alert>
              )}
              <Field label="Repository URL" htmlFor="project-settings-repository" hint={importer.urlError ?? undefined}>
                <Input
                  id="project-settings-repository"
                  value={importer.url}
                  placeholder="https://github.com/owner/name"
                  autoComplete="off"
                  inputMode="url"
                  aria-invalid={importer.urlError !== null}
                  onChange={(event) => importer.setUrl(event.target.value)}
                />
              </Field>
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" checked={importer.confirmed} onChange={(event) => importer.setConfirmed(event.target.checked)} />
                Replace this project's files
              </label>
              <Button type="submit" variant="outline" disabled={!importer.canImport} loading={importer.importing} className="w-fit">
                <GitBranch aria-hidden />
                Import repository
              </Button>
            </form>
            <form onSubmit={onDelete} className="grid gap-3 rounded-lg border border-destructive/40 p-4">
              <div>
                <h3 className="text-sm font-semibold">Delete this project</h3>
                <p className="mt-1 text-sm text-muted-foreground">
                  Its files, versions, database and published site go with it. This cannot be undone from here.
                </p>
              </div>
              <Field label="Type the project's name to delete it" htmlFor="project-settings-confirm" hint={`Type ${project.name}`}>
                <Input id="project-settings-confirm" value={vm.confirmText} autoComplete="off" onChange={(event) => vm.setConfirmText(event.target.value)} />
              </Field>
              <Button type="submit" variant="destructive" disabled={!vm.canDelete} loading={vm.busy === 'deleting'} className="w-fit">
                <Trash2 aria-hidden />
                Delete project
              </Button>
            </form>
          </>
        )}
      </div>
    </Dialog>
  );
});

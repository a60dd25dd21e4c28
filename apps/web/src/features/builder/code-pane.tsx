import { ChevronRight, Code2, File, FileCode2, FileJson, FileText, Folder, FolderOpen, PanelRightClose, Save, X } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { type KeyboardEvent, Suspense, lazy, useEffect, useRef } from 'react';
import { Button } from '../../ui/button';
import { cn } from '../../ui/cn';
import { Skeleton } from '../../ui/skeleton';
import { Spinner } from '../../ui/spinner';
import { Tooltip } from '../../ui/tooltip';
import type { FilesVm, TreeRow } from './files.vm';
import type { FileTreeActionsVm } from './file-tree-actions.vm';
import { FileActionDialog, FileRowActions, FileTreeToolbar } from './file-tree-actions.view';

// CodeMirror and its languages are a chunk of their own, fetched when the code tab first shows a file.
const CodeEditor = lazy(() => import('./code-editor'));

/** The code tab: file tree on the side, open files as tabs, the editor, Save. */
export const CodePane = observer(function CodePane({ files, actions, dark }: { files: FilesVm; actions: FileTreeActionsVm; dark: boolean }) {
  // SPEC: Save also on Ctrl+S / Cmd+S while the code tab is shown (instead of the browser's "save page").
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void files.save();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [files]);

  return (
    <div className="flex h-full min-h-0 flex-col md:flex-row">
      <div className="flex max-h-[38%] min-h-0 shrink-0 flex-col border-b border-border bg-background md:max-h-none md:w-60 md:border-r md:border-b-0 lg:w-64">
        <div className="flex h-9 shrink-0 items-center pr-1.5 pl-3">
          <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Files</p>
          <FileTreeToolbar actions={actions} />
        </div>
        <FileTree files={files} actions={actions} />
        <FileActionDialog actions={actions} />
      </div>
      <div className="flex min-h-0 min-w-0 flex-1 flex-col bg-background">
        {files.display.visible ? (
          <EditorArea files={files} dark={dark} />
        ) : (
          <div className="flex flex-1 flex-col items-center justify-center gap-3 p-6 text-center text-sm text-muted-foreground">
            <p>The editor is hidden. Files the assistant changes will not reopen it.</p>
            <Button variant="outline" size="sm" onClick={files.showDisplay}>
              Show editor
            </Button>
          </div>
        )}
      </div>
    </div>
  );
});

// ── File tree ──────────────────────────────────────────────────────────────────────────────

function iconFor(row: TreeRow) {
  if (row.entry.type === 'directory') return row.expanded ? FolderOpen : Folder;
  const name = row.entry.name.toLowerCase();
  if (name.endsWith('.json')) return FileJson;
  if (/\.(m|c)?(j|t)sx?$/.test(name) || name.endsWith('.css') || name.endsWith('.html')) return FileCode2;
  if (name.endsWith('.md') || name.endsWith('.txt')) return FileText;
  return File;
}

/**
 * An ARIA tree with one row per visible entry (aria-level/-setsize/-posinset instead of nested
 * groups, so each item's name is just its file name). Roving focus: ↑/↓ move, → opens a folder
 * (or moves into it), ← closes it, Enter/Space opens a file or toggles a folder.
 */
const FileTree = observer(function FileTree({ files, actions }: { files: FilesVm; actions: FileTreeActionsVm }) {
  const list = useRef<HTMLDivElement>(null);
  const rows = files.rows;

  if (files.treeStatus === 'loading' || files.treeStatus === 'idle') {
    return (
      <div className="grid gap-2 px-3 py-2" aria-busy>
        {['w-3/4', 'w-1/2', 'w-4/5', 'w-2/5', 'w-3/5'].map((width) => (
          <Skeleton key={width} className={cn('h-4', width)} />
        ))}
      </div>
    );
  }
  if (rows.length === 0) return <p className="px-3 py-2 text-sm text-muted-foreground">No files yet.</p>;

  const focusRow = (index: number) => {
    const items = list.current?.querySelectorAll<HTMLElement>('[role="treeitem"]');
    items?.[Math.max(0, Math.min(index, items.length - 1))]?.focus();
  };
  const activate = (row: TreeRow) => {
    if (row.entry.type === 'directory') files.toggleFolder(row.entry.path);
    else void files.open(row.entry.path);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>, row: TreeRow, index: number) => {
    const keys: Record<string, () => void> = {
      ArrowDown: () => focusRow(index + 1),
      ArrowUp: () => focusRow(index - 1),
      Home: () => focusRow(0),
      End: () => focusRow(rows.length - 1),
      ArrowRight: () => {
        if (row.entry.type !== 'directory') return;
        if (row.expanded) focusRow(index + 1);
        else files.setFolderExpanded(row.entry.path, true);
      },
      ArrowLeft: () => {
        if (row.entry.type === 'directory' && row.expanded) files.setFolderExpanded(row.entry.path, false);
        else if (row.level > 1) {
          const parent = rows.slice(0, index).findLastIndex((r) => r.level === row.level - 1);
          if (parent >= 0) focusRow(parent);
        }
      },
      Enter: () => activate(row),
      ' ': () => activate(row),
      F2: () => actions.startRename(row.entry.path, row.entry.type),
      Delete: () => actions.startDelete(row.entry.path, row.entry.type),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  };
  const activePath = files.display.activePath;
  const focusable = Math.max(0, rows.findIndex((r) => r.entry.path === activePath));

  return (
    <div ref={list} role="tree" aria-label="Files" className="min-h-0 flex-1 overflow-auto px-1.5 pb-2 text-sm">
      {rows.map((row, index) => {
        const Icon = iconFor(row);
        const isDirectory = row.entry.type === 'directory';
        const selected = row.entry.path === activePath;
        return (
          <div
            key={row.entry.path}
            role="treeitem"
            aria-label={row.entry.name}
            aria-level={row.level}
            aria-setsize={row.siblings}
            aria-posinset={row.position}
            aria-expanded={isDirectory ? row.expanded : undefined}
            aria-selected={selected}
            tabIndex={index === focusable ? 0 : -1}
            onClick={() => activate(row)}
            onKeyDown={(event) => onKeyDown(event, row, index)}
            style={{ paddingLeft: `${(row.level - 1) * 14 + 6}px` }}
            className={cn(
              'group flex h-7 cursor-pointer items-center gap-1.5 rounded-md pr-1 whitespace-nowrap outline-none select-none',
              'hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring',
              selected && 'bg-brand-soft text-foreground hover:bg-brand-soft',
            )}
          >
            <ChevronRight
              aria-hidden
              className={cn('size-3.5 shrink-0 text-muted-foreground transition-transform', !isDirectory && 'invisible', row.expanded && 'rotate-90')}
            />
            <Icon aria-hidden className={cn('size-4 shrink-0', isDirectory ? 'text-brand' : 'text-muted-foreground')} />
            <span className="truncate">{row.entry.name}</span>
            {files.opening === row.entry.path && <Spinner className="ml-auto size-3.5" />}
            <FileRowActions row={row} actions={actions} />
          </div>
        );
      })}
    </div>
  );
});

// ── Open files and the editor ──────────────────────────────────────────────────────────────

const EditorArea = observer(function EditorArea({ files, dark }: { files: FilesVm; dark: boolean }) {
  const active = files.activeFile;
  return (
    <>
      <div className="flex h-9 shrink-0 items-stretch border-b border-border bg-muted/40">
        <div className="flex min-w-0 flex-1 items-stretch overflow-x-auto" aria-label="Open files" role="group">
          {files.openFiles.map((file) => {
            const isActive = file.path === active?.path;
            return (
              <div
                key={file.path}
                className={cn(
                  'group flex shrink-0 items-center border-r border-border text-sm',
                  isActive ? 'bg-background text-foreground' : 'text-muted-foreground hover:bg-background/60',
                )}
              >
                <button
                  type="button"
                  title={file.path}
                  aria-current={isActive ? 'page' : undefined}
                  onClick={() => files.select(file.path)}
                  className="flex h-full items-center gap-1.5 pr-1 pl-3 outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
                >
                  <span className="max-w-40 truncate">{file.label}</span>
                  {file.dirty && (
                    <span className="size-2 rounded-full bg-brand" title="Unsaved changes">
                      <span className="sr-only">(unsaved)</span>
                    </span>
                  )}
                </button>
                <button
                  type="button"
                  aria-label={`Close ${file.label}`}
                  onClick={() => files.close(file.path)}
                  className="mr-1 inline-flex size-6 items-center justify-center rounded text-muted-foreground opacity-70 outline-none hover:bg-accent hover:text-foreground hover:opacity-100 focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <X className="size-3.5" aria-hidden />
                </button>
              </div>
            );
          })}
        </div>
        <Tooltip content="Hide the editor">
          <button
            type="button"
            aria-label="Hide editor"
            onClick={files.hideDisplay}
            className="inline-flex w-9 shrink-0 items-center justify-center text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
          >
            <PanelRightClose className="size-4" aria-hidden />
          </button>
        </Tooltip>
      </div>
      {active === null ? (
        <div className="flex flex-1 flex-col items-center justify-center gap-2 p-6 text-center text-sm text-muted-foreground">
          <Code2 className="size-8 opacity-60" aria-hidden />
          <p>Select a file in the tree to see its code.</p>
        </div>
      ) : (
        <>
          <div className="flex h-10 shrink-0 items-center gap-2 border-b border-border px-3">
            <p className="min-w-0 flex-1 truncate font-mono text-xs text-muted-foreground" title={active.path}>
              {active.path}
              {active.dirty && <span className="ml-2 font-sans text-brand">Unsaved changes</span>}
            </p>
            <Tooltip content="Save (Ctrl+S / ⌘S)">
              <Button size="sm" variant={active.dirty ? 'brand' : 'outline'} disabled={!active.dirty} loading={active.saving} onClick={() => void files.save(active.path)}>
                {active.saving ? null : <Save aria-hidden />}
                Save
              </Button>
            </Tooltip>
          </div>
          <div className="min-h-0 flex-1 overflow-hidden">
            <Suspense
              fallback={
                <div className="flex h-full items-center justify-center gap-2 text-sm text-muted-foreground">
                  <Spinner /> Loading the editor…
                </div>
              }
            >
              <CodeEditor
                key={active.path}
                value={active.text}
                language={active.language}
                dark={dark}
                onChange={(text) => files.edit(active.path, text)}
              />
            </Suspense>
          </div>
        </>
      )}
    </>
  );
});

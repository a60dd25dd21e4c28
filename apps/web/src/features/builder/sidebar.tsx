import { ArrowLeftRight, Bug, ChevronDown, ChevronRight, CircleCheck, History, LoaderCircle, MessageSquare, RotateCcw, Save, WandSparkles } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { type FormEvent, type KeyboardEvent, type PointerEvent, useId, useRef } from 'react';
import type { ChatTab } from '../../app/ports';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { cn } from '../../ui/cn';
import { Dialog } from '../../ui/dialog';
import { Input } from '../../ui/input';
import { Skeleton } from '../../ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/tabs';
import { Tooltip } from '../../ui/tooltip';
import { MAX_CHAT_WIDTH, MIN_CHAT_WIDTH } from './builder-preferences';
import type { BuilderVm } from './builder.vm';
import { ChatPanel } from './chat/chat.view';
import type { ChatVm } from './chat/chat.vm';
import { errorLocation } from './errors.vm';
import type { VersionsVm } from './versions.vm';

/**
 * The sidebar (SPEC §2: right by default, visible by default, 400 px): the chat panel's two
 * tabs — tab1 "Chat" (the assistant, with the project's problems under the conversation) and
 * tab2 "Versions". Its width is dragged on the inner edge (or set with the arrow keys there).
 */
export const Sidebar = observer(function Sidebar({ vm, chat }: { vm: BuilderVm; chat: ChatVm }) {
  const prefs = vm.preferences;
  const left = prefs.sidebarPosition === 'left';
  return (
    <aside
      aria-label="Sidebar"
      style={{ '--sidebar-width': `${prefs.chatWidth}px` } as React.CSSProperties}
      className={cn(
        'relative flex h-[58%] min-h-0 shrink-0 flex-col border-t border-border bg-background',
        'md:h-auto md:w-(--sidebar-width) md:max-w-[55%] md:border-t-0',
        left ? 'md:border-r' : 'md:border-l',
      )}
    >
      <ResizeHandle vm={vm} />
      <Tabs value={prefs.chatTab} onValueChange={(value) => prefs.setChatTab(value as ChatTab)} className="flex min-h-0 flex-1 flex-col">
        <div className="flex h-11 shrink-0 items-center gap-2 border-b border-border px-2">
          <TabsList aria-label="Sidebar panels" className="h-8 w-auto">
            <TabsTrigger value="tab1" className="h-6 px-2.5 text-xs">
              <MessageSquare aria-hidden />
              Chat
              {vm.errors.errorCount > 0 && (
                <Badge tone="destructive" className="px-1.5 py-0 text-[10px]">
                  {vm.errors.errorCount}
                </Badge>
              )}
            </TabsTrigger>
            <TabsTrigger value="tab2" className="h-6 px-2.5 text-xs">
              <History aria-hidden />
              Versions
            </TabsTrigger>
          </TabsList>
          <Tooltip content={left ? 'Move to the right' : 'Move to the left'}>
            <button
              type="button"
              aria-label={left ? 'Move sidebar to the right' : 'Move sidebar to the left'}
              onClick={prefs.moveSidebar}
              className="ml-auto hidden size-8 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring md:inline-flex"
            >
              <ArrowLeftRight className="size-4" aria-hidden />
            </button>
          </Tooltip>
        </div>
        <TabsContent value="tab1" className="mt-0 flex min-h-0 flex-1 flex-col data-[state=inactive]:hidden" forceMount>
          <ChatPanel chat={chat} problems={<ErrorsPanel vm={vm} chat={chat} />} />
        </TabsContent>
        <TabsContent value="tab2" className="mt-0 min-h-0 flex-1 overflow-y-auto">
          <VersionsPanel versions={vm.versions} />
        </TabsContent>
      </Tabs>
    </aside>
  );
});

const ResizeHandle = observer(function ResizeHandle({ vm }: { vm: BuilderVm }) {
  const prefs = vm.preferences;
  const drag = useRef<{ x: number; width: number } | null>(null);
  const left = prefs.sidebarPosition === 'left';
  // Dragging toward the workspace widens the sidebar.
  const widthAt = (x: number) => {
    const start = drag.current;
    if (start === null) return prefs.chatWidth;
    return start.width + (left ? x - start.x : start.x - x);
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, width: prefs.chatWidth };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current !== null) prefs.resizeChatWidth(widthAt(event.clientX));
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current === null) return;
    prefs.resizeChatWidth(widthAt(event.clientX));
    drag.current = null;
    prefs.commitChatWidth();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? 64 : 16;
    const wider = left ? 'ArrowRight' : 'ArrowLeft';
    const narrower = left ? 'ArrowLeft' : 'ArrowRight';
    if (event.key === wider) prefs.setChatWidth(prefs.chatWidth + step);
    else if (event.key === narrower) prefs.setChatWidth(prefs.chatWidth - step);
    else if (event.key === 'Home') prefs.setChatWidth(MIN_CHAT_WIDTH);
    else if (event.key === 'End') prefs.setChatWidth(MAX_CHAT_WIDTH);
    else return;
    event.preventDefault();
  };
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize sidebar"
      aria-valuenow={prefs.chatWidth}
      aria-valuemin={MIN_CHAT_WIDTH}
      aria-valuemax={MAX_CHAT_WIDTH}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
      className={cn(
        'group absolute inset-y-0 z-10 hidden w-2 cursor-col-resize touch-none outline-none md:block',
        left ? '-right-1' : '-left-1',
      )}
    >
      <span className="mx-auto block h-full w-0.5 bg-transparent transition-colors group-hover:bg-brand/50 group-focus-visible:bg-ring group-active:bg-brand" />
    </div>
  );
});

// ── Problems ───────────────────────────────────────────────────────────────────────────────

/**
 * The project's problems, folded under the conversation: the header (counts, "Check for
 * errors") always shows; the list opens with the "Problems" button. Each problem opens its file
 * or asks the assistant to fix it.
 */
const ErrorsPanel = observer(function ErrorsPanel({ vm, chat }: { vm: BuilderVm; chat: ChatVm }) {
  const errors = vm.errors;
  const listId = useId();
  const scan = errors.scan;
  const open = chat.problemsOpen;
  const Chevron = open ? ChevronDown : ChevronRight;
  return (
    <section aria-label="Problems" className="shrink-0 border-t border-border px-3 py-2">
      <div className="flex items-center gap-2">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => chat.setProblemsOpen(!open)}
          className="-ml-1 inline-flex min-w-0 items-center gap-1.5 rounded-md px-1 py-1 text-sm font-semibold outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
        >
          <Chevron className="size-4 text-muted-foreground" aria-hidden />
          <Bug className="size-4 text-muted-foreground" aria-hidden />
          Problems
        </button>
        {errors.hasCounts && (
          <span className="truncate text-xs text-muted-foreground">
            {errors.errorCount} {errors.errorCount === 1 ? 'error' : 'errors'}, {errors.warningCount} {errors.warningCount === 1 ? 'warning' : 'warnings'}
          </span>
        )}
        <Button size="sm" variant="outline" className="ml-auto h-7 px-2.5 text-xs" loading={errors.checking} onClick={() => void errors.check()}>
          Check for errors
        </Button>
      </div>
      <div id={listId} hidden={!open} className="max-h-32 overflow-y-auto pt-2 pb-1 md:max-h-56">
        {scan === null && !errors.checking && <p className="text-sm text-muted-foreground">Type-check and lint the project to find what would break it.</p>}
        {errors.notCheckedMessage !== null && <p className="text-sm text-muted-foreground">{errors.notCheckedMessage}</p>}
        {errors.noProblems && (
          <p className="flex items-center gap-2 text-sm text-success">
            <CircleCheck className="size-4" aria-hidden /> No problems found.
          </p>
        )}
        {scan !== null && scan.errors.length > 0 && (
          <ul aria-label="Problems found" className="grid grid-cols-1 gap-1.5">
            {scan.errors.map((error, index) => {
              const solving = chat.isSolving(error);
              return (
                <li key={`${errorLocation(error)}-${index}`} className="grid gap-1.5 rounded-lg border border-border px-3 py-2">
                  <button
                    type="button"
                    onClick={() => void vm.openFile(error.file)}
                    className="grid w-full gap-1 rounded-md text-left outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
                  >
                    <span className="flex min-w-0 items-center gap-2">
                      <Badge tone={error.severity === 'error' ? 'destructive' : 'warning'}>{error.severity}</Badge>
                      <code className="truncate font-mono text-xs text-muted-foreground">{errorLocation(error)}</code>
                    </span>
                    <span className="text-sm break-words">{error.message}</span>
                  </button>
                  <Button size="sm" variant="outline" className="h-7 w-fit px-2.5 text-xs" disabled={solving} onClick={() => chat.fixError(error)}>
                    {solving ? <LoaderCircle className="animate-spin" aria-hidden /> : <WandSparkles aria-hidden />}
                    {solving ? 'Fixing…' : 'Fix with AI'}
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
});

// ── Versions ───────────────────────────────────────────────────────────────────────────────

const VersionsPanel = observer(function VersionsPanel({ versions }: { versions: VersionsVm }) {
  const inputId = useId();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void versions.saveVersion();
  };
  return (
    <div className="grid grid-cols-1 gap-4 p-3">
      <form onSubmit={onSubmit} className="grid gap-2 rounded-xl border border-border p-3">
        <label htmlFor={inputId} className="text-sm font-medium">
          Describe this version
        </label>
        <div className="flex gap-2">
          <Input
            id={inputId}
            value={versions.message}
            maxLength={200}
            placeholder="e.g. New pricing section"
            onChange={(event) => versions.setMessage(event.target.value)}
            className="h-9"
          />
          <Button type="submit" size="sm" className="h-9" loading={versions.committing}>
            {versions.committing ? null : <Save aria-hidden />}
            Save version
          </Button>
        </div>
      </form>
      {versions.status !== 'ready' ? (
        <div className="grid gap-2" aria-busy>
          <Skeleton className="h-14" />
          <Skeleton className="h-14" />
        </div>
      ) : versions.rows.length === 0 ? (
        <p className="px-1 text-sm text-muted-foreground">No versions yet. Save one to be able to come back to it.</p>
      ) : (
        <ul aria-label="Versions" className="grid grid-cols-1 gap-2">
          {versions.rows.map((row) => (
            <li key={row.hash} className="flex items-start gap-3 rounded-xl border border-border p-3">
              <div className="min-w-0 flex-1">
                <p className="flex min-w-0 items-center gap-2 text-sm font-medium">
                  <span className="truncate" title={row.message}>
                    {row.message}
                  </span>
                  {row.current && (
                    <Badge tone="success" className="shrink-0 px-1.5 py-0 text-[10px]">
                      current
                    </Badge>
                  )}
                </p>
                <p className="mt-0.5 text-xs text-muted-foreground">
                  <time dateTime={row.date} title={new Date(row.date).toLocaleString()}>
                    {row.when}
                  </time>
                  {' · '}
                  <span className="font-mono">{row.shortHash}</span>
                </p>
                <details className="mt-1 text-xs">
                  <summary className="cursor-pointer text-muted-foreground outline-none select-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring">
                    {row.filesChanged} {row.filesChanged === 1 ? 'file' : 'files'} changed
                  </summary>
                  <ul aria-label={`Files changed in ${row.shortHash}`} className="mt-1 grid grid-cols-1 gap-1">
                    {row.files.map((path) => (
                      <li key={path} className="flex min-w-0 items-center gap-2">
                        <code className="min-w-0 flex-1 truncate font-mono" title={path}>
                          {path}
                        </code>
                        {row.canUndoFiles && (
                          <Button
                            size="sm"
                            variant="ghost"
                            className="h-6 shrink-0 px-2 text-xs"
                            aria-label={`Undo this file: ${path}`}
                            loading={versions.isUndoing(row.hash, path)}
                            disabled={versions.undoingFile !== null}
                            onClick={() => void versions.undoFile(row.hash, path)}
                          >
                            Undo this file
                          </Button>
                        )}
                      </li>
                    ))}
                  </ul>
                </details>
              </div>
              <Button size="sm" variant="outline" onClick={() => versions.askRestore(row.hash)}>
                <RotateCcw aria-hidden />
                Restore
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
});

/** Restoring asks first: the project's files go back to that version (as a new version on top). */
export const RestoreDialog = observer(function RestoreDialog({ versions }: { versions: VersionsVm }) {
  const commit = versions.pendingRestore;
  return (
    <Dialog
      open={commit !== null}
      onClose={versions.cancelRestore}
      locked={versions.restoring}
      title="Restore this version?"
      icon={<RotateCcw className="size-5" aria-hidden />}
      description={
        commit === null ? undefined : (
          <>
            Your project goes back to <strong className="text-foreground">“{commit.message}”</strong>. The versions after it stay in the history, so you
            can come back to them.
          </>
        )
      }
      footer={
        <>
          <Button variant="outline" data-autofocus onClick={versions.cancelRestore} disabled={versions.restoring}>
            Cancel
          </Button>
          <Button variant="brand" loading={versions.restoring} onClick={() => void versions.confirmRestore()}>
            Yes, restore
          </Button>
        </>
      }
    />
  );
});

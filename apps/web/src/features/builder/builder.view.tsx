/*
 * /builder/:projectId — the builder screen (SPEC §2), inside the builder layout.
 *
 * Accessible names the end-to-end tests rely on (keep them stable):
 * - when the server runs project code unisolated: alert "Sandbox not isolated" under the toolbar
 * - tabs (role tab): "Preview" (default), "Code"
 * - status line: role status, name "Sandbox status"; its text reads e.g. "Running · Website is running"
 * - preview: <iframe title="App preview">; device buttons (role button, aria-pressed, in the group
 *   "Device size"; shown from 640 px): "Mobile", "Tablet", "Laptop", "Desktop"; buttons
 *   "Reload preview", "Open preview in a new tab", "Full screen"; in full screen "Exit full screen"
 * - code tab: tree "Files" with role treeitem items named by the file or folder name (folders
 *   toggle on click); editor area (CodeMirror's contenteditable) aria-label "Code editor"; button
 *   "Save" (Ctrl/Cmd+S too; use exact matching: "Save version" also contains "Save"); per open
 *   file a button with its label and "Close <label>"; "Hide editor" / "Show editor"
 * - bottom panel (open by default from 768 px, closed below; the Terminal/Console buttons open
 *   it): buttons "Terminal" and "Console" (aria-pressed), "Hide bottom panel" / "Show bottom
 *   panel", "Clear console"; the terminal container is role group, aria-label "Terminal" (use
 *   exact matching or the role: xterm's own textarea is labelled "Terminal input" — type there);
 *   console list "Console messages"
 * - sidebar (role complementary "Sidebar"): tabs "Chat" (tab1, default) and "Versions" (tab2);
 *   toolbar button "Hide sidebar" / "Show sidebar"; "Move sidebar to the left|right"; separator
 *   "Resize sidebar"
 * - Chat tab: the assistant (names listed at the top of chat/chat.view.tsx: textbox "Message the
 *   assistant", buttons "Send", "Enhance prompt", "Run plan", "Cancel plan", switch "Auto-run
 *   plans", status "Assistant status", articles "User message" / "Assistant message"); under
 *   the conversation the Problems fold: button "Problems" (aria-expanded) opens the list
 *   "Problems found" (each item: severity badge, file:line:col, message, "Fix with AI");
 *   button "Check for errors"
 * - while the sidebar is hidden and the assistant works, the toolbar shows its phase words
 * - Versions tab: textbox "Describe this version", button "Save version"; list "Versions" whose
 *   listitems each have a "Restore" button; the confirmation dialog "Restore this version?" has
 *   "Cancel" and "Yes, restore"
 * - toolbar button "Theme" opens the dialog "Theme builder" (names at the top of
 *   theme/theme-builder.view.tsx)
 * - toolbar button "Publish" opens the dialog "Publish your app" (names at the top of
 *   ../hosting/publish.view.tsx)
 * - toolbar button "Database" opens the dialog "Database" (names at the top of
 *   ../databases/database.view.tsx)
 * - the project's name (heading level 1) is the button "Project settings <name>", which opens the
 *   dialog "Project settings" (names at the top of project-settings/project-settings.view.tsx)
 * - toolbar button "Plan & usage" opens the dialog "Plan & usage": the usage-limits panel and the
 *   SPEC §2 billing buttons (names at the top of ../billing/plan-usage.panel.tsx)
 */
import { ChevronDown, ChevronUp, Code2, Eye, PanelLeftOpen, PanelRightOpen, SquareTerminal, TerminalSquare, Trash2 } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { Suspense, lazy, useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { Badge } from '../../ui/badge';
import { cn } from '../../ui/cn';
import { Spinner } from '../../ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/tabs';
import { Tooltip } from '../../ui/tooltip';
import { useVm } from '../../use-vm';
import { PlanUsageButton, PlanUsageDialog } from '../billing/plan-usage.dialog';
import { PlanUsageVm } from '../billing/plan-usage.vm';
import { ColorModeStore } from '../color-mode/color-mode.store';
import { DatabaseButton, DatabaseDialog } from '../databases/database.view';
import { ProjectSettingsDialog } from './project-settings/project-settings.view';
import { ProjectSettingsVm } from './project-settings/project-settings.vm';
import { RepositoryImportVm } from './project-settings/repository-import.vm';
import { DatabaseVm } from '../databases/database.vm';
import { PublishVm } from '../hosting/publish.vm';
import { PublishButton, PublishDialog } from '../hosting/publish.view';
import { type BuilderTab, BuilderVm, type DockTab } from './builder.vm';
import { ChatVm } from './chat/chat.vm';
import { CodePane } from './code-pane';
import { ConsolePanel } from './console-panel';
import { PreviewActions, PreviewPane } from './preview-pane';
import { RestoreDialog, Sidebar } from './sidebar';
import { ThemeBuilderDialog, ThemeButton } from './theme/theme-builder.view';

// xterm.js is a chunk of its own, fetched when the terminal first shows.
const TerminalPanel = lazy(() => import('./terminal.panel'));

const TONE_DOT = {
  success: 'bg-success',
  warning: 'bg-warning animate-pulse',
  neutral: 'bg-muted-foreground',
  destructive: 'bg-destructive',
} as const;

export const BuilderView = observer(function BuilderView() {
  const { projectId = '' } = useParams();
  const vm = useVm(BuilderVm);
  const chat = useVm(ChatVm);
  const colorMode = useVm(ColorModeStore);
  const publish = useVm(PublishVm);
  const database = useVm(DatabaseVm);
  const settings = useVm(ProjectSettingsVm);
  const repositoryImport = useVm(RepositoryImportVm);
  const billing = useVm(PlanUsageVm);
  const dark = colorMode.resolved === 'dark';

  useEffect(() => {
    void vm.start(projectId);
    return () => vm.dispose();
  }, [vm, projectId]);

  // The assistant follows the same project (its first turn waits for the sandbox).
  useEffect(() => {
    void chat.start(projectId, vm);
    return () => chat.dispose();
  }, [chat, vm, projectId]);

  // Publishing follows the same project (the toolbar shows whether it is live).
  useEffect(() => {
    publish.setProject(projectId);
    return () => publish.dispose();
  }, [publish, projectId]);

  // The settings panel (SPEC §2): a rename shows in the toolbar at once.
  useEffect(() => {
    settings.setProject(projectId, vm.setProjectName);
    repositoryImport.setProject(projectId);
  }, [settings, repositoryImport, vm, projectId]);

  // The project's database (SPEC §3 databaseConnected; the Publish dialog reads its tables).
  useEffect(() => {
    database.setProject(projectId);
  }, [database, projectId]);

  // Narrow screens start with the bottom panel closed, so the preview keeps some room.
  useEffect(() => {
    if (typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 767px)').matches) vm.setDockOpen(false);
  }, [vm]);

  // Escape leaves the full-screen preview.
  useEffect(() => {
    if (!vm.fullscreen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') vm.exitFullscreen();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [vm, vm.fullscreen]);

  // Unsaved editor changes: the browser asks before the page is left.
  const unsaved = vm.files.hasUnsavedChanges;
  useEffect(() => {
    if (!unsaved) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [unsaved]);

  const prefs = vm.preferences;
  return (
    <Tabs value={vm.activeTab} onValueChange={(value) => vm.setTab(value as BuilderTab)} className="flex h-full min-h-0 flex-col">
      <Toolbar vm={vm} chat={chat} publish={publish} database={database} settings={settings} billing={billing} />
      {vm.isolationWarning !== null && (
        <div role="alert" aria-label="Sandbox not isolated" className="shrink-0 border-b border-destructive/40 bg-destructive/10 px-3 py-1.5 text-sm text-destructive">
          {vm.isolationWarning}
        </div>
      )}
      <div className={cn('flex min-h-0 flex-1 flex-col md:flex-row', prefs.sidebarPosition === 'left' && 'md:flex-row-reverse')}>
        <section aria-label="Workspace" className="flex min-h-0 min-w-0 flex-1 flex-col">
          <TabsContent value="preview" forceMount className="mt-0 min-h-0 flex-1 data-[state=inactive]:hidden">
            <PreviewPane vm={vm} />
          </TabsContent>
          <TabsContent value="code" className="mt-0 min-h-0 flex-1">
            <CodePane files={vm.files} actions={vm.fileActions} dark={dark} />
          </TabsContent>
          <Dock vm={vm} dark={dark} />
        </section>
        {prefs.sidebarVisible && <Sidebar vm={vm} chat={chat} />}
      </div>
      <RestoreDialog versions={vm.versions} />
      <ThemeBuilderDialog vm={vm.theme} />
      <PublishDialog vm={publish} />
      <DatabaseDialog vm={database} />
      <ProjectSettingsDialog vm={settings} importer={repositoryImport} />
      <PlanUsageDialog vm={billing} />
    </Tabs>
  );
});

const Toolbar = observer(function Toolbar({
  vm,
  chat,
  publish,
  database,
  settings,
  billing,
}: {
  vm: BuilderVm;
  chat: ChatVm;
  publish: PublishVm;
  database: DatabaseVm;
  settings: ProjectSettingsVm;
  billing: PlanUsageVm;
}) {
  const prefs = vm.preferences;
  const SidebarIcon = prefs.sidebarPosition === 'left' ? PanelLeftOpen : PanelRightOpen;
  return (
    <div className="flex shrink-0 flex-wrap items-center gap-x-3 gap-y-2 border-b border-border bg-background px-3 py-2">
      <div className="flex min-w-0 flex-1 basis-48 items-center gap-3">
        <h1 className="shrink-0 text-sm font-semibold tracking-tight">
          <Tooltip content="Project settings">
            <button
              type="button"
              aria-haspopup="dialog"
              aria-expanded={settings.open}
              title={vm.projectName}
              onClick={() => void settings.show()}
              className="-mx-1.5 inline-flex items-center gap-1 rounded-md px-1.5 py-1 outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
            >
              <span className="sr-only">Project settings </span>
              {/* A width of its own, and none on the button: a percentage max-width on a button counts as 0 in its intrinsic size, which left only the first letter. */}
              <span className="max-w-[38vw] truncate sm:max-w-[16rem]">{vm.projectName || <span className="text-muted-foreground">Loading project…</span>}</span>
              <ChevronDown className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />
            </button>
          </Tooltip>
        </h1>
        <p role="status" aria-label="Sandbox status" title={vm.statusText} className="flex min-w-0 flex-1 items-center gap-1.5 text-xs text-muted-foreground">
          <span aria-hidden className={cn('size-2 shrink-0 rounded-full', TONE_DOT[vm.statusTone])} />
          <span className="shrink-0 font-medium text-foreground">{vm.statusLabel}</span>
          {vm.statusDetail && (
            <>
              <span aria-hidden>{' · '}</span>
              <span className="truncate">{vm.statusDetail}</span>
            </>
          )}
        </p>
        {!prefs.sidebarVisible && chat.status.working && (
          <Badge tone="brand" className="shrink-0">
            <Spinner className="size-3" /> {chat.status.label}
          </Badge>
        )}
        {vm.phase === 'ready' && vm.feedState !== 'open' && (
          <Badge tone="outline" className="shrink-0" title="Live updates reconnect automatically">
            <Spinner className="size-3" /> Reconnecting
          </Badge>
        )}
      </div>
      {/* On phones the view names are icons only (still named for assistive tech), so the row fits 375 px. */}
      <div className="flex max-w-full flex-wrap items-center gap-1 sm:gap-2">
        <TabsList aria-label="Builder views" className="h-9 w-auto">
          <TabsTrigger value="preview" className="h-7">
            <Eye aria-hidden />
            <span className="max-sm:sr-only">Preview</span>
          </TabsTrigger>
          <TabsTrigger value="code" className="h-7">
            <Code2 aria-hidden />
            <span className="max-sm:sr-only">Code</span>
          </TabsTrigger>
        </TabsList>
        {vm.activeTab === 'preview' && <PreviewActions vm={vm} />}
        <DatabaseButton vm={database} />
        <ThemeButton vm={vm.theme} />
        <PlanUsageButton vm={billing} />
        <Tooltip content={prefs.sidebarVisible ? 'Hide sidebar' : 'Show sidebar'}>
          <button
            type="button"
            aria-label={prefs.sidebarVisible ? 'Hide sidebar' : 'Show sidebar'}
            aria-pressed={prefs.sidebarVisible}
            onClick={prefs.toggleSidebar}
            className={cn(
              'inline-flex size-8 shrink-0 items-center justify-center rounded-md text-muted-foreground outline-none',
              'hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring',
              prefs.sidebarVisible && 'bg-accent text-foreground',
            )}
          >
            <SidebarIcon className="size-4" aria-hidden />
          </button>
        </Tooltip>
        <PublishButton vm={publish} />
      </div>
    </div>
  );
});

const DOCK_TABS: readonly { tab: DockTab; label: string; icon: typeof SquareTerminal }[] = [
  { tab: 'terminal', label: 'Terminal', icon: TerminalSquare },
  { tab: 'console', label: 'Console', icon: SquareTerminal },
];

/** The bottom panel: terminal and console, both kept mounted while the other shows. */
const Dock = observer(function Dock({ vm, dark }: { vm: BuilderVm; dark: boolean }) {
  const open = vm.dockOpen;
  return (
    <div className={cn('flex shrink-0 flex-col border-t border-border bg-background', open ? 'h-44 md:h-56' : 'h-9')}>
      <div className="flex h-9 shrink-0 items-center gap-1 px-2">
        {DOCK_TABS.map(({ tab, label, icon: Icon }) => {
          const pressed = open && vm.dockTab === tab;
          return (
            <button
              key={tab}
              type="button"
              aria-pressed={pressed}
              onClick={() => vm.setDockTab(tab)}
              className={cn(
                'inline-flex h-7 items-center gap-1.5 rounded-md px-2.5 text-xs font-medium text-muted-foreground outline-none',
                'hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring',
                pressed && 'bg-accent text-foreground',
              )}
            >
              <Icon className="size-3.5" aria-hidden />
              {label}
              {tab === 'console' && vm.console.unseen > 0 && (
                <Badge tone={vm.console.errorCount > 0 ? 'destructive' : 'warning'} className="px-1.5 py-0 text-[10px]">
                  {vm.console.unseen}
                </Badge>
              )}
              {tab === 'terminal' && vm.terminal.running !== null && <Spinner className="size-3" />}
            </button>
          );
        })}
        <div className="ml-auto flex items-center gap-1">
          {open && vm.dockTab === 'console' && vm.console.entries.length > 0 && (
            <Tooltip content="Clear console">
              <button
                type="button"
                aria-label="Clear console"
                onClick={vm.console.clear}
                className="inline-flex size-7 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
              >
                <Trash2 className="size-3.5" aria-hidden />
              </button>
            </Tooltip>
          )}
          <Tooltip content={open ? 'Hide panel' : 'Show panel'}>
            <button
              type="button"
              aria-label={open ? 'Hide bottom panel' : 'Show bottom panel'}
              aria-expanded={open}
              onClick={vm.toggleDock}
              className="inline-flex size-7 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
            >
              {open ? <ChevronDown className="size-4" aria-hidden /> : <ChevronUp className="size-4" aria-hidden />}
            </button>
          </Tooltip>
        </div>
      </div>
      <div hidden={!open || vm.dockTab !== 'terminal'} className="min-h-0 flex-1 border-t border-border">
        <Suspense
          fallback={
            <div className="flex h-full items-center justify-center gap-2 text-sm text-muted-foreground">
              <Spinner /> Loading the terminal…
            </div>
          }
        >
          <TerminalPanel vm={vm.terminal} dark={dark} />
        </Suspense>
      </div>
      <div hidden={!open || vm.dockTab !== 'console'} className="min-h-0 flex-1 border-t border-border">
        <ConsolePanel console={vm.console} />
      </div>
    </div>
  );
});

import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../app/ports';
import type { ProjectDto, ProjectsApi } from '../../api/projects.api';
import { ManualTimers, RecordingAnalytics } from '../../testing/auth-fakes';
import { FakeFileSaver, FakeNavigation, FakeToasts, RecordingLogger } from '../../testing/ui-fakes';
import {
  FakeFeed,
  FakeSandboxApi,
  FakeUrlProbe,
  FakeWindowMessages,
  MemoryPreferences,
  PREVIEW_ORIGIN,
  PREVIEW_URL,
  SequentialIds,
  sandboxInfo,
} from './builder.fakes';
import { BuilderVm, PREVIEW_REFRESH_GUARD_MS, PREVIEW_URL_MAX_AGE_MS } from './builder.vm';
import { SandboxSetup } from './sandbox-setup';

const settle = async () => {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

const project = (id: string): ProjectDto => ({ id, name: 'Habit tracker', slug: 'habit-tracker', status: 'active', domain: null, created_at: '', updated_at: '' });

function setUp(options: { projects?: Partial<ProjectsApi>; probe?: FakeUrlProbe; preferences?: MemoryPreferences } = {}) {
  const api = new FakeSandboxApi();
  const feed = new FakeFeed();
  const toasts = new FakeToasts();
  const timers = new ManualTimers(Date.parse('2024-01-01T12:00:00.000Z'));
  const messages = new FakeWindowMessages();
  const navigation = new FakeNavigation();
  const preferences = options.preferences ?? new MemoryPreferences();
  const logger = new RecordingLogger();
  const analytics = new RecordingAnalytics();
  const projects = { create: async () => project('p1'), get: async (id: string) => project(id), ...options.projects } as ProjectsApi;
  const vm = new BuilderVm(
    api,
    feed,
    projects,
    new SandboxSetup(api, options.probe ?? new FakeUrlProbe(), logger),
    toasts,
    timers,
    preferences,
    messages,
    navigation,
    new SequentialIds(),
    logger,
    analytics,
    new FakeFileSaver(),
  );
  return { vm, api, feed, toasts, timers, messages, navigation, preferences, analytics };
}

async function started(options: Parameters<typeof setUp>[0] = {}) {
  const t = setUp(options);
  await t.vm.start('p1');
  await settle();
  return t;
}

describe('BuilderVm start', () => {
  it("sends SPEC §7 'Project Opened' from the builder once per project, not on a retry", async () => {
    const t = await started();
    expect(t.analytics.events).toEqual([{ event: 'Project Opened', properties: { project_id: 'p1', source: 'builder' } }]);
    await t.vm.retry();
    await settle();
    expect(t.analytics.events).toHaveLength(1);
  });

  it("sends no 'Project Opened' for a project that is not there", async () => {
    const t = await started({ projects: { get: async () => Promise.reject(new ApiError('Not found', 404, 'PROJECTS.NOT_FOUND', null)) } });
    expect(t.analytics.events).toEqual([]);
  });

  it('starts the sandbox, then loads the name, tree and history and listens to the feed', async () => {
    const t = await started();

    expect(t.vm.phase).toBe('ready');
    expect(t.vm.projectName).toBe('Habit tracker');
    expect(t.vm.previewUrl).toBe(PREVIEW_URL);
    expect(t.vm.statusText).toBe('Running · Website is running');
    expect(t.vm.statusTone).toBe('success');
    expect(t.api.calls).toEqual(['ensure', 'getTree', 'gitHistory']);
    expect(t.feed.connected).toEqual(['p1']);
    expect(t.vm.feedState).toBe('open');
    expect(t.vm.files.rows.map((r) => r.entry.name)).toEqual(['src', 'index.html', 'package.json']);
    expect(t.vm.versions.rows.map((r) => r.message)).toEqual(['Add a header', 'Initial version']);
  });

  it('warns when the server runs project code unisolated, and only then', async () => {
    const isolated = await started();
    expect(isolated.vm.isolationWarning).toBeNull();
    const t = setUp();
    t.api.info_ = { ...t.api.info_, isolated: false, isolation_warning: 'Project code is not isolated on this server: bubblewrap is not installed.' };
    await t.vm.start('p1');
    await settle();
    expect(t.vm.isolationWarning).toBe('Project code is not isolated on this server: bubblewrap is not installed.');
    t.api.info_ = { ...t.api.info_, isolated: false, isolation_warning: undefined } as unknown as typeof t.api.info_;
    await t.vm.start('p1');
    await settle();
    expect(t.vm.isolationWarning).toBe('Project code is not isolated on this server.');
  });

  it('opens on the preview tab, desktop size, dock open on the terminal', () => {
    const { vm } = setUp();
    expect([vm.activeTab, vm.device, vm.fullscreen, vm.dockOpen, vm.dockTab]).toEqual(['preview', 'desktop', false, true, 'terminal']);
  });

  it('treats a failed ensure as running when the preview answers (SPEC §8)', async () => {
    const t = setUp({ probe: new FakeUrlProbe(true) });
    t.api.failures.set('ensure', new ApiError('Request failed', 502, null, null));
    await t.vm.start('p1');
    expect(t.vm.phase).toBe('ready');
    expect(t.vm.statusText).toBe('Running · Website is running');
  });

  it('shows the failure and retries when the sandbox cannot start', async () => {
    const t = setUp();
    t.api.failures.set('ensure', new ApiError('The sandbox host is not reachable', 503, null, null));
    await t.vm.start('p1');
    expect(t.vm.phase).toBe('failed');
    expect(t.vm.failure).toBe('The sandbox host is not reachable');
    expect(t.vm.statusTone).toBe('destructive');
    expect(t.feed.connected).toEqual([]);

    t.api.failures.clear();
    await t.vm.retry();
    expect(t.vm.phase).toBe('ready');
    expect(t.feed.connected).toEqual(['p1']);
  });

  it('says so when the project does not exist', async () => {
    const t = await started({ projects: { get: async () => Promise.reject(new ApiError('Project not found', 404, 'PROJECTS.NOT_FOUND', {})) } });
    expect(t.vm.phase).toBe('failed');
    expect(t.vm.failure).toMatch(/does not exist/);
  });

  it('stops the feed and the message listener on dispose, and ignores late events', async () => {
    const t = await started();
    const listener = t.feed.listener;
    t.vm.dispose();
    expect(t.feed.closed).toBe(1);
    expect(t.messages.subscribers).toBe(0);
    listener?.onEvent({ type: 'status', data: { status: 'failed', message: 'late', url: '' } });
    expect(t.vm.status).toBe('running');
  });
});

describe('BuilderVm realtime feed', () => {
  it('updates the status line from status events', async () => {
    const t = await started();
    t.feed.emit({ type: 'status', data: { status: 'starting', message: 'Restarting the dev server', url: PREVIEW_URL } });
    expect(t.vm.statusText).toBe('Starting · Restarting the dev server');
    expect(t.vm.statusTone).toBe('warning');
  });

  it('does not claim "Running" while the feed is down: Reconnecting…, then Server unreachable, until it is back', async () => {
    const t = await started();
    expect(t.vm.statusTone).toBe('success');
    // The server goes away: the connection ends, and the feed keeps trying.
    t.feed.state('closed');
    expect(t.vm.statusLabel).toBe('Reconnecting…');
    expect(t.vm.statusTone).toBe('warning');
    expect(t.vm.statusText).toBe('Reconnecting… · The connection to the server was lost');
    for (let attempt = 0; attempt < 2; attempt += 1) {
      t.feed.state('connecting');
      expect(t.vm.statusLabel).toBe('Reconnecting…');
      t.feed.state('closed');
    }
    expect(t.vm.statusLabel).toBe('Server unreachable');
    expect(t.vm.statusTone).toBe('destructive');
    t.feed.state('connecting');
    expect(t.vm.statusLabel).toBe('Server unreachable');
    // Back: the dev server's own state again.
    t.feed.state('open');
    expect(t.vm.statusText).toBe('Running · Website is running');
    expect(t.vm.statusTone).toBe('success');
  });

  it('reloads the tree on files-changed (a burst costs at most two loads)', async () => {
    const t = await started();
    t.api.calls.length = 0;
    t.api.tree = [...t.api.tree, { name: 'README.md', type: 'file', path: 'README.md' }];

    for (let i = 0; i < 5; i += 1) t.feed.emit({ type: 'files-changed', data: { paths: ['README.md'], reason: 'write' } });
    await settle();

    expect(t.api.calls.filter((c) => c === 'getTree')).toHaveLength(2);
    expect(t.vm.files.rows.map((r) => r.entry.name)).toContain('README.md');
  });

  it('refreshes open files that changed on disk, but never over a draft', async () => {
    const t = await started();
    await t.vm.files.open('src/App.tsx');
    await t.vm.files.open('src/main.tsx');
    t.vm.files.edit('src/main.tsx', 'my unsaved edit');
    t.api.files.set('src/App.tsx', 'changed by a command');
    t.api.files.set('src/main.tsx', 'changed on disk');

    t.feed.emit({ type: 'files-changed', data: { paths: ['src/App.tsx', 'src/main.tsx'], reason: 'write' } });
    await settle();

    const byPath = Object.fromEntries(t.vm.files.openFiles.map((f) => [f.path, f.text]));
    expect(byPath).toEqual({ 'src/App.tsx': 'changed by a command', 'src/main.tsx': 'my unsaved edit' });
    expect(t.vm.files.activeFile?.path).toBe('src/main.tsx'); // a refresh does not switch tabs
  });

  it('closes the tab of a deleted file', async () => {
    const t = await started();
    await t.vm.files.open('src/App.tsx');
    t.api.files.delete('src/App.tsx');
    t.feed.emit({ type: 'files-changed', data: { paths: ['src/App.tsx'], reason: 'delete' } });
    await settle();
    expect(t.vm.files.openFiles).toEqual([]);
  });

  it('reloads the history when a command or a restore changed files', async () => {
    const t = await started();
    t.api.calls.length = 0;
    t.feed.emit({ type: 'files-changed', data: { paths: [], reason: 'command' } });
    await settle();
    expect(t.api.calls).toContain('gitHistory');
  });
});

describe('BuilderVm preview', () => {
  it('switches device, tab and fullscreen', () => {
    const { vm } = setUp();
    vm.setDevice('mobile');
    vm.setTab('code');
    vm.toggleFullscreen();
    expect([vm.device, vm.activeTab, vm.fullscreen]).toEqual(['mobile', 'code', true]);
    vm.exitFullscreen();
    expect(vm.fullscreen).toBe(false);
  });

  it('reloads the frame, asking for a fresh address once the preview token may have expired', async () => {
    const t = await started();
    await t.vm.reloadPreview();
    expect(t.vm.previewKey).toBe(1);
    expect(t.api.calls).not.toContain('info');

    t.timers.advance(PREVIEW_URL_MAX_AGE_MS + 1);
    t.api.info_ = sandboxInfo({ url: 'http://p1.preview.localhost:3000/__kiln/auth?token=t2&next=/' });
    await t.vm.reloadPreview();
    expect(t.vm.previewKey).toBe(2);
    expect(t.vm.previewUrl).toContain('token=t2');
  });

  it('opens the preview in a new tab at once while its token is valid, else with a fresh address', async () => {
    const t = await started();
    void t.vm.openPreviewInNewTab();
    expect(t.navigation.opened).toEqual([PREVIEW_URL]); // within the click: no popup blocker

    t.timers.advance(PREVIEW_URL_MAX_AGE_MS + 1);
    t.api.info_ = sandboxInfo({ url: 'http://p1.preview.localhost:3000/__kiln/auth?token=t2&next=/' });
    await t.vm.openPreviewInNewTab();
    expect(t.navigation.opened.at(-1)).toContain('token=t2');
  });

  it("fetches a fresh address when the preview says 'auth-required', at most every 10 s", async () => {
    const t = await started();
    t.api.info_ = sandboxInfo({ url: 'http://p1.preview.localhost:3000/__kiln/auth?token=t2&next=/' });
    t.api.calls.length = 0;
    t.messages.post('http://evil.example', { source: 'kiln-preview', type: 'auth-required' });
    t.messages.post(PREVIEW_ORIGIN, { source: 'kiln-preview', type: 'auth-required' });
    await settle();
    expect(t.api.calls).toEqual(['info']);
    expect(t.vm.previewUrl).toContain('token=t2');

    t.messages.post('http://p1.preview.localhost:3000', { source: 'kiln-preview', type: 'auth-required' });
    await settle();
    expect(t.api.calls).toEqual(['info']); // the reload guard
    t.timers.advance(PREVIEW_REFRESH_GUARD_MS);
    t.messages.post('http://p1.preview.localhost:3000', { source: 'kiln-preview', type: 'auth-required' });
    await settle();
    expect(t.api.calls).toEqual(['info', 'info']);
  });
});

describe('BuilderVm console', () => {
  const message = (text: string, level = 'error') => ({ source: 'kiln-preview', type: 'console', level, text, timestamp: 1 });

  it('accepts bridge messages only from the preview origin', async () => {
    const t = await started();
    t.messages.post('http://evil.example', message('from elsewhere'));
    t.messages.post('http://localhost:3000', message('from the app itself'));
    t.messages.post(PREVIEW_ORIGIN, { source: 'other', type: 'console', level: 'error', text: 'not the bridge' });
    t.messages.post(PREVIEW_ORIGIN, message('TypeError: boom'));

    expect(t.vm.console.entries.map((e) => e.text)).toEqual(['TypeError: boom']);
    expect(t.vm.console.entries[0]?.timestamp).toBe('2024-01-01T12:00:00.000Z');
  });

  it('keeps the SPEC §5 rules: no logs, no duplicates within 1500 ms; clear empties it', async () => {
    const t = await started();
    t.messages.post(PREVIEW_ORIGIN, message('hello', 'log'));
    t.messages.post(PREVIEW_ORIGIN, message('boom'));
    t.messages.post(PREVIEW_ORIGIN, message('boom'));
    t.timers.advance(1500);
    t.messages.post(PREVIEW_ORIGIN, message('boom'));
    t.messages.post(PREVIEW_ORIGIN, message('careful', 'warn'));
    expect(t.vm.console.entries.map((e) => `${e.level} ${e.text}`)).toEqual(['error boom', 'error boom', 'warn careful']);
    expect([t.vm.console.errorCount, t.vm.console.warningCount, t.vm.console.unseen]).toEqual([2, 1, 3]);

    t.vm.setDockTab('console');
    expect(t.vm.console.unseen).toBe(0);
    t.vm.console.clear();
    expect(t.vm.console.entries).toEqual([]);
  });

  it('trusts nothing before the preview address is known', () => {
    const t = setUp();
    t.vm.console.start();
    t.messages.post(PREVIEW_ORIGIN, message('early'));
    expect(t.vm.console.entries).toEqual([]);
  });
});

describe('BuilderVm errors', () => {
  it('lists find-errors results with locations and counts', async () => {
    const t = await started();
    await t.vm.errors.check();
    expect(t.vm.errors.scan?.errors.map((e) => `${e.severity} ${e.file}:${e.line}:${e.column}`)).toEqual([
      'error src/App.tsx:3:7',
      'warning src/main.tsx:1:5',
    ]);
    expect([t.vm.errors.errorCount, t.vm.errors.warningCount, t.vm.errors.failed]).toEqual([1, 1, false]);
  });

  it('checks again on its own after files change on the feed (not for an empty folder)', async () => {
    const t = await started();
    t.feed.emit({ type: 'files-changed', data: { paths: [], reason: 'create-directory' } });
    await settle();
    expect(t.api.calls.filter((c) => c === 'findErrors')).toHaveLength(0);
    t.feed.emit({ type: 'files-changed', data: { paths: ['src/App.tsx'], reason: 'write' } });
    await settle();
    expect(t.api.calls.filter((c) => c === 'findErrors')).toHaveLength(1);
    expect(t.vm.errors.errorCount).toBe(1);
  });

  it('counts zero when the scan fails (SPEC §8)', async () => {
    const t = await started();
    t.api.failures.set('findErrors', new Error('down'));
    await t.vm.errors.check();
    expect([t.vm.errors.errorCount, t.vm.errors.warningCount, t.vm.errors.failed]).toEqual([0, 0, true]);
  });

  it('leaves errors of the AI-support folder out', async () => {
    const t = await started();
    t.api.scan = { errors: [{ message: 'x', file: 'src/.kiln/bridge.ts', line: 1, column: 1, severity: 'error' }], error_count: 1, warning_count: 0 };
    await t.vm.errors.check();
    expect(t.vm.errors.errorCount).toBe(0);
  });
});

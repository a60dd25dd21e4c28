import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../app/ports';
import { ManualTimers, RecordingAnalytics } from '../../testing/auth-fakes';
import { FakeClipboard, FakeToasts, RecordingLogger, flush } from '../../testing/ui-fakes';
import { FakeDatabasesApi, connectedCheck, table } from '../../testing/databases-fakes';
import { ProjectDatabaseStore } from '../databases/project-database.store';
import { FakeHostingApi, FakeUpgrade, NEVER_PUBLISHED, NOW, liveSite, paymentRequired, release } from '../../testing/hosting-fakes';
import { PublishVm } from './publish.vm';

function setup(options: { clipboardFails?: boolean } = {}) {
  const api = new FakeHostingApi();
  const upgrade = new FakeUpgrade();
  const clipboard = new FakeClipboard(options.clipboardFails ?? false);
  const toasts = new FakeToasts();
  const timers = new ManualTimers(NOW);
  const databases = new FakeDatabasesApi();
  const database = new ProjectDatabaseStore(databases, new RecordingLogger());
  const vm = new PublishVm(api, upgrade, clipboard, toasts, timers, new RecordingLogger(), new RecordingAnalytics(), database);
  return { api, upgrade, clipboard, toasts, timers, vm, databases, database };
}

const buildFailed = (log: string) => new ApiError('The build failed', 422, 'HOSTING.BUILD_FAILED', { code: 'HOSTING.BUILD_FAILED', build_log: log });

describe('PublishVm: status and the pre-publish check', () => {
  it("loads the project's site status when the builder opens it", async () => {
    const { api, vm } = setup();
    api.site = liveSite();
    vm.setProject('p1');
    await flush();
    expect(api.calls).toEqual(['status p1']);
    expect(vm.isLive).toBe(true);
    expect(vm.publishedUrl).toBe('http://chores.apps.localhost:3000/');
    expect(vm.publishedHost).toBe('chores.apps.localhost:3000');
  });

  it('opens the dialog after an allowed check; a first publish is "Publish"', async () => {
    const { api, upgrade, vm } = setup();
    vm.setProject('p1');
    await vm.openDialog();
    expect(api.calls).toEqual(['status p1', 'publishCheck p1', 'status p1']);
    expect(vm.open).toBe(true);
    expect(vm.limited).toBe(false);
    expect(vm.publishLabel).toBe('Publish');
    expect(upgrade.opened).toEqual([]);
  });

  it('a free plan (402 published) with nothing published opens the upgrade dialog instead', async () => {
    const { api, upgrade, vm } = setup();
    api.fail('publishCheck', paymentRequired());
    vm.setProject('p1');
    await vm.openDialog();
    expect(upgrade.opened).toEqual(['published']);
    expect(vm.open).toBe(false);
    expect(vm.limited).toBe(true);
  });

  it('over the limit with a live site: the dialog stays to manage it, and Publish offers the upgrade', async () => {
    const { api, upgrade, vm } = setup();
    api.site = liveSite();
    api.fail('publishCheck', paymentRequired('PUBLISHING.LIMIT_REACHED'));
    vm.setProject('p1');
    await vm.openDialog();
    expect(vm.open).toBe(true);
    expect(vm.publishLabel).toBe('Upgrade to publish');
    await vm.publish();
    expect(upgrade.opened).toEqual(['published', 'published']);
    expect(api.calls).not.toContain('publish p1');
  });

  it('a check that cannot decide says so and publishes nothing', async () => {
    const { api, upgrade, vm } = setup();
    vm.setProject('p1');
    await flush();
    api.fail('publishCheck', new ApiError('Unable to determine subscription plan', 409, 'PUBLISHING.PLAN_UNDETERMINED', null));
    await vm.publish();
    expect(vm.phase).toBe('failed');
    expect(vm.error).toBe('Unable to determine subscription plan');
    expect(api.calls).not.toContain('publish p1');
    expect(upgrade.opened).toEqual([]);
  });
});

describe('PublishVm: publishing', () => {
  it('checks, then shows "Building…" with the elapsed time while the request runs, then Live with the URL', async () => {
    const { api, toasts, timers, vm } = setup();
    vm.setProject('p1');
    await flush();
    api.hold('publish');
    const publishing = vm.publish();
    await flush();
    expect(vm.phase).toBe('building');
    expect(vm.busy).toBe(true);
    expect(vm.steps).toEqual([
      { label: 'Building…', state: 'active' },
      { label: 'Upload', state: 'waiting' },
      { label: 'Live', state: 'waiting' },
    ]);
    timers.advance(12_000);
    expect(vm.elapsed).toBe('12 s');
    timers.advance(60_000);
    expect(vm.elapsed).toBe('1 min 12 s');
    api.release('publish');
    await publishing;

    expect(api.calls).toEqual(['status p1', 'publishCheck p1', 'publish p1']);
    expect(vm.phase).toBe('live');
    expect(vm.steps?.map((s) => s.state)).toEqual(['done', 'done', 'done']);
    expect(vm.publishedUrl).toBe('http://chores.apps.localhost:3000/');
    expect(vm.publishLabel).toBe('Publish again');
    expect(toasts.shown).toEqual([{ title: 'Your app is live', description: 'http://chores.apps.localhost:3000/', variant: 'success' }]);
    // The ticker stopped with the request.
    timers.advance(5000);
    expect(vm.elapsed).toBe('1 min 12 s');
    expect(timers.running).toBe(0);
  });

  it('a failed build shows its log, publishes nothing and keeps the site as it was', async () => {
    const { api, toasts, vm } = setup();
    api.site = liveSite();
    vm.setProject('p1');
    await flush();
    api.fail('publish', buildFailed("src/App.tsx(3,1): error TS1005: ';' expected."));
    await vm.publish();
    expect(vm.phase).toBe('build-failed');
    expect(vm.buildLog).toBe("src/App.tsx(3,1): error TS1005: ';' expected.");
    expect(vm.steps).toEqual([
      { label: 'Build', state: 'failed' },
      { label: 'Upload', state: 'skipped' },
      { label: 'Live', state: 'skipped' },
    ]);
    expect(vm.site?.current_release?.number).toBe(2);
    expect(toasts.shown).toEqual([]);
  });

  it('a 402 from the publish itself opens the upgrade dialog', async () => {
    const { api, upgrade, vm } = setup();
    vm.setProject('p1');
    await flush();
    api.fail('publish', paymentRequired('PUBLISHING.LIMIT_REACHED'));
    await vm.publish();
    expect(upgrade.opened).toEqual(['published']);
    expect(vm.phase).toBe('idle');
    expect(vm.limited).toBe(true);
  });

  it('any other failure is said in words, and publishing can be tried again', async () => {
    const { api, vm } = setup();
    vm.setProject('p1');
    await flush();
    api.fail('publish', new ApiError('Publishing is unavailable right now', 503, 'HOSTING.UNAVAILABLE', null));
    await vm.publish();
    expect(vm.phase).toBe('failed');
    expect(vm.error).toBe('Publishing is unavailable right now');
    expect(vm.steps).toBeNull();
    await vm.publish();
    expect(vm.phase).toBe('live');
    expect(vm.error).toBeNull();
  });

  it('ignores a second Publish while one is under way', async () => {
    const { api, vm } = setup();
    vm.setProject('p1');
    await flush();
    api.hold('publish');
    const first = vm.publish();
    await flush();
    await vm.publish();
    api.release('publish');
    await first;
    expect(api.calls.filter((c) => c === 'publish p1')).toHaveLength(1);
  });

  it('reopening the dialog during a publish shows it, without a new check', async () => {
    const { api, vm } = setup();
    vm.setProject('p1');
    await flush();
    api.hold('publish');
    const publishing = vm.publish();
    await flush();
    vm.closeDialog();
    await vm.openDialog();
    expect(vm.open).toBe(true);
    expect(vm.phase).toBe('building');
    expect(api.calls.filter((c) => c.startsWith('publishCheck'))).toHaveLength(1);
    api.release('publish');
    await publishing;
  });
});

describe('PublishVm: the live site', () => {
  it('lists the releases: number, time, size, short commit, the current one, Rollback on older ones', async () => {
    const { api, vm } = setup();
    api.site = liveSite({ releases: [release(3), release(2), release(1)], current_release: release(2) });
    vm.setProject('p1');
    await flush();
    expect(vm.releases).toEqual([
      { id: 'r3', number: 3, when: '7 minutes ago', at: release(3).created_at, size: '150 KB', files: 4, commit: '3333333', current: false, action: 'Switch to', switching: false },
      { id: 'r2', number: 2, when: '8 minutes ago', at: release(2).created_at, size: '150 KB', files: 4, commit: '2222222', current: true, action: null, switching: false },
      { id: 'r1', number: 1, when: '9 minutes ago', at: release(1).created_at, size: '150 KB', files: 4, commit: '1111111', current: false, action: 'Roll back', switching: false },
    ]);
  });

  it('offers no release switch while the site is not live', async () => {
    const { api, vm } = setup();
    api.site = liveSite({ status: 'unpublished' });
    vm.setProject('p1');
    await flush();
    expect(vm.releases.map((r) => r.action)).toEqual([null, null]);
    expect(vm.publishedUrl).toBeNull();
  });

  it('rolls back to an earlier release; the list follows', async () => {
    const { api, toasts, vm } = setup();
    api.site = liveSite();
    vm.setProject('p1');
    await flush();
    api.hold('rollback');
    const rolling = vm.rollback('r1');
    await flush();
    expect(vm.releases.find((r) => r.id === 'r1')?.switching).toBe(true);
    api.release('rollback');
    await rolling;
    expect(api.calls).toContain('rollback p1 r1');
    expect(vm.releases.find((r) => r.current)?.number).toBe(1);
    expect(toasts.shown).toEqual([{ title: 'Release #1 is live', description: 'Visitors get this release now.', variant: 'success' }]);
    expect(vm.pending).toBeNull();
  });

  it('a failed rollback says why and keeps the current release', async () => {
    const { api, toasts, vm } = setup();
    api.site = liveSite();
    vm.setProject('p1');
    await flush();
    api.fail('rollback', new ApiError('Release not found', 404, 'HOSTING.RELEASE_NOT_FOUND', null));
    await vm.rollback('r1');
    expect(vm.releases.find((r) => r.current)?.number).toBe(2);
    expect(toasts.shown).toEqual([{ title: 'Could not switch releases', description: 'Release not found', variant: 'error' }]);
  });

  it('unpublishes after confirmation; the releases are kept', async () => {
    const { api, toasts, vm } = setup();
    api.site = liveSite();
    vm.setProject('p1');
    await flush();
    vm.askUnpublish();
    expect(vm.confirmingUnpublish).toBe(true);
    await vm.confirmUnpublish();
    expect(api.calls).toContain('unpublish p1');
    expect(vm.isLive).toBe(false);
    expect(vm.publishedUrl).toBeNull();
    expect(vm.releases).toHaveLength(2);
    expect(vm.confirmingUnpublish).toBe(false);
    expect(toasts.shown[0]?.title).toBe('Unpublished');
  });

  it('copies the URL through the clipboard port, with a toast', async () => {
    const { api, clipboard, toasts, vm } = setup();
    api.site = liveSite();
    vm.setProject('p1');
    await flush();
    await vm.copyUrl();
    expect(clipboard.written).toEqual(['http://chores.apps.localhost:3000/']);
    expect(toasts.shown).toEqual([{ title: 'Link copied', variant: 'success' }]);
  });

  it('says so when the browser refuses the clipboard', async () => {
    const { api, toasts, vm } = setup({ clipboardFails: true });
    api.site = liveSite();
    vm.setProject('p1');
    await flush();
    await vm.copyUrl();
    expect(toasts.shown).toEqual([{ title: 'Could not copy', description: 'The browser did not allow it. Select the text and copy it yourself.', variant: 'error' }]);
  });

  it('takes a screenshot of the live site and shows the new one', async () => {
    const { api, vm } = setup();
    api.site = liveSite({ screenshot_url: '/api/hosting/sites/chores/screenshot.png' });
    vm.setProject('p1');
    await flush();
    expect(vm.screenshotSrc).toBe('/api/hosting/sites/chores/screenshot.png');
    await vm.takeScreenshot();
    expect(api.calls).toContain('takeScreenshot p1');
    expect(vm.screenshotSrc).toBe('/api/hosting/sites/chores/screenshot.png?v=2026-01-10T12%3A00%3A05.000Z');
  });

  it('takes no screenshot of a site that is not live; a refused one is said', async () => {
    const { api, toasts, vm } = setup();
    vm.setProject('p1');
    await flush();
    await vm.takeScreenshot();
    expect(api.calls).not.toContain('takeScreenshot p1');
    api.site = liveSite();
    await vm.loadStatus();
    api.fail('takeScreenshot', new ApiError('This project is not published', 409, 'HOSTING.NOT_PUBLISHED', null));
    await vm.takeScreenshot();
    expect(toasts.shown).toEqual([{ title: 'Could not take a screenshot', description: 'This project is not published', variant: 'error' }]);
  });

  it('never links to an address that is not http(s)', async () => {
    const { api, vm } = setup();
    api.site = liveSite({ published_url: 'javascript:alert(1)', screenshot_url: '//evil.example/x.png' });
    vm.setProject('p1');
    await flush();
    expect(vm.publishedUrl).toBeNull();
    expect(vm.screenshotSrc).toBeNull();
  });

  it('a status that cannot be loaded is said, and a new project starts clean', async () => {
    const { api, vm } = setup();
    api.fail('status', new ApiError('Request failed', 500, null, null));
    vm.setProject('p1');
    await flush();
    expect(vm.statusError).toBe('Request failed');
    api.site = NEVER_PUBLISHED;
    vm.setProject('p2');
    await flush();
    expect(vm.statusError).toBeNull();
    expect(vm.site?.status).toBe('never_published');
  });
});

describe('PublishVm: tables without row-level security', () => {
  const unsafe = () =>
    new ApiError('Publishing is refused: table "legacy" has row-level security off. Anyone with the app could read or change it.', 409, 'HOSTING.DATABASE_UNSAFE', {
      code: 'HOSTING.DATABASE_UNSAFE',
    });

  it('opening the dialog checks the database again and names the tables anyone could read or change', async () => {
    const { databases, database, vm } = setup();
    databases.connected = true;
    databases.database = connectedCheck({ tables: [table('todos')] });
    database.setProject('p1');
    vm.setProject('p1');
    await flush();
    expect(vm.unsafeTables).toEqual([]);
    databases.database = connectedCheck({ tables: [table('todos'), table('legacy', { rls_enabled: false })] });
    await vm.openDialog();
    expect(databases.calls).toEqual(['check p1', 'check p1']);
    expect(vm.unsafeTables).toEqual(['legacy']);
  });

  it('no warning from another project’s database, and no check for it', async () => {
    const { databases, database, vm } = setup();
    databases.connected = true;
    databases.database = connectedCheck({ tables: [table('legacy', { rls_enabled: false })] });
    database.setProject('p0');
    vm.setProject('p1');
    await vm.openDialog();
    expect(databases.calls).toEqual(['check p0']);
    expect(vm.unsafeTables).toEqual([]);
  });

  it('a 409 HOSTING.DATABASE_UNSAFE shows the server’s message and refreshes the table list', async () => {
    const { api, databases, database, vm } = setup();
    database.setProject('p1');
    vm.setProject('p1');
    await vm.openDialog();
    databases.connected = true;
    databases.database = connectedCheck({ tables: [table('legacy', { rls_enabled: false })] });
    api.fail('publish', unsafe());
    await vm.publish();
    await flush();
    expect(vm.phase).toBe('failed');
    expect(vm.error).toBe('Publishing is refused: table "legacy" has row-level security off. Anyone with the app could read or change it.');
    expect(vm.unsafeTables).toEqual(['legacy']);
    expect(api.calls).toContain('publish p1');
  });
});

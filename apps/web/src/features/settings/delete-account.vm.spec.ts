import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../app/ports';
import type { AccountApi, DeletedAccountDto } from '../../api/account.api';
import { RecordingNavigator, ScriptedSession, sessionUser } from '../../testing/auth-fakes';
import { FakeToasts } from '../../testing/ui-fakes';
import { DeleteAccountVm } from './delete-account.vm';

const DELETED: DeletedAccountDto = { id: 'user-1', deleted_at: '2026-03-01T10:00:00.000Z', subscription_cancelled: true, projects_hidden: 2 };

/** An AccountApi whose next reply the test releases (or fails) by hand. */
class ControlledAccountApi implements AccountApi {
  calls = 0;
  private settle: { resolve: (v: DeletedAccountDto) => void; reject: (e: unknown) => void } | null = null;
  softDelete(): Promise<DeletedAccountDto> {
    this.calls += 1;
    return new Promise((resolve, reject) => (this.settle = { resolve, reject }));
  }
  succeed(): void {
    this.settle?.resolve(DELETED);
  }
  fail(error: unknown): void {
    this.settle?.reject(error);
  }
}

function setup() {
  const api = new ControlledAccountApi();
  const session = new ScriptedSession('signed-in', sessionUser({ email: 'Ada@Example.com' }));
  const navigator = new RecordingNavigator();
  const toasts = new FakeToasts();
  const vm = new DeleteAccountVm(api, session, navigator, toasts);
  return { api, session, navigator, toasts, vm };
}

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('DeleteAccountVm (Settings › Delete account)', () => {
  it('stays disabled until the account’s email is typed (case and spaces aside)', async () => {
    const { api, vm } = setup();
    vm.open();
    expect(vm.confirming).toBe(true);
    expect(vm.canDelete).toBe(false);
    vm.setConfirmation('ada@example.co');
    expect(vm.canDelete).toBe(false);
    await vm.confirm();
    expect(api.calls).toBe(0);
    vm.setConfirmation('  ada@EXAMPLE.com ');
    expect(vm.canDelete).toBe(true);
  });

  it('deletes once, then signs out locally, says so and goes home', async () => {
    const { api, session, navigator, toasts, vm } = setup();
    vm.open();
    vm.setConfirmation('ada@example.com');
    const first = vm.confirm();
    const second = vm.confirm(); // a double click
    expect(vm.deleting).toBe(true);
    expect(vm.canDelete).toBe(false);
    vm.dismiss(); // cannot be closed while it runs
    expect(vm.confirming).toBe(true);
    api.succeed();
    await Promise.all([first, second]);
    expect(api.calls).toBe(1);
    expect(session.callsOf('signOut')).toHaveLength(1);
    expect(session.status).toBe('signed-out');
    expect(navigator.visits).toEqual([{ to: '/', replace: true }]);
    expect(toasts.shown).toEqual([expect.objectContaining({ title: 'Account deleted', variant: 'success' })]);
    expect(vm.confirming).toBe(false);
  });

  it('on a 503 keeps the dialog open with a retry message, still signed in; a retry succeeds', async () => {
    const { api, session, navigator, vm } = setup();
    vm.open();
    vm.setConfirmation('ada@example.com');
    const attempt = vm.confirm();
    api.fail(new ApiError('Service Unavailable', 503, 'ACCOUNT.DELETION_UNAVAILABLE', {}));
    await attempt;
    expect(vm.error).toBe('Your account could not be deleted right now. Nothing was lost; please try again in a moment.');
    expect([vm.confirming, vm.deleting, vm.canDelete]).toEqual([true, false, true]);
    expect(session.callsOf('signOut')).toHaveLength(0);
    expect(navigator.visits).toEqual([]);

    const retry = vm.confirm();
    await flush();
    api.succeed();
    await retry;
    expect(navigator.last).toBe('/');
  });

  it('a reopened dialog starts empty', () => {
    const { vm } = setup();
    vm.open();
    vm.setConfirmation('ada@example.com');
    vm.dismiss();
    vm.open();
    expect([vm.confirmation, vm.canDelete, vm.error]).toEqual(['', false, null]);
  });
});

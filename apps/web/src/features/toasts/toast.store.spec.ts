import { describe, expect, it } from '@jest/globals';
import { autorun } from 'mobx';
import { ManualTimers } from '../../testing/auth-fakes';
import {
  TOAST_DEFAULT_DURATION_MS,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY_MS,
  ToastStore,
  specVariantOf,
} from './toast.store';

function setup() {
  const scheduler = new ManualTimers();
  return { scheduler, store: new ToastStore(scheduler) };
}

describe('ToastStore (SPEC §4 toasts)', () => {
  it('adds an open toast with the default 4000 ms duration', () => {
    const { store } = setup();

    const id = store.show({ title: 'Link Copied!', description: 'Referral link copied to clipboard', variant: 'success' });

    expect(store.toasts).toEqual([
      { id, title: 'Link Copied!', description: 'Referral link copied to clipboard', variant: 'success', duration: 4000, open: true },
    ]);
    expect(TOAST_DEFAULT_DURATION_MS).toBe(4000);
  });

  it('carries an action (SPEC §3 Toast.action): pressing it closes the toast, then runs it once', () => {
    const { store } = setup();
    const runs: string[] = [];
    const id = store.show({ title: 'Could not enhance the prompt', variant: 'error', action: { label: 'Try again', run: () => runs.push('again') } });
    expect(store.toasts[0]?.action?.label).toBe('Try again');
    store.act(id);
    expect(store.toasts[0]?.open).toBe(false);
    expect(runs).toEqual(['again']);
    store.act(id); // closed: a second press does nothing
    expect(runs).toEqual(['again']);
    const plain = store.show({ title: 'Link Copied!', variant: 'success' });
    store.act(plain);
    expect(store.toasts[0]?.open).toBe(true);
  });

  it('keeps a duration given by the caller', () => {
    const { store } = setup();
    store.show({ title: 'Updating Subscription', variant: 'info', duration: 10_000 });
    expect(store.toasts[0]?.duration).toBe(10_000);
  });

  it('shows one toast at a time: the newest replaces the previous one', () => {
    const { store } = setup();

    store.show({ title: 'First', variant: 'info' });
    const second = store.show({ title: 'Second', variant: 'warning' });

    expect(TOAST_LIMIT).toBe(1);
    expect(store.toasts.map((t) => t.id)).toEqual([second]);
  });

  it('gives every toast its own id', () => {
    const { store } = setup();
    const ids = new Set(Array.from({ length: 5 }, () => store.show({ title: 'x', variant: 'info' })));
    expect(ids.size).toBe(5);
  });

  it('dismissing closes the toast and removes it only after 1,000,000 ms', () => {
    const { store, scheduler } = setup();
    const id = store.show({ title: 'Checkout Error', variant: 'error' });

    store.dismiss(id);
    expect(store.toasts).toHaveLength(1);
    expect(store.toasts[0]?.open).toBe(false);

    scheduler.advance(TOAST_REMOVE_DELAY_MS - 1);
    expect(store.toasts).toHaveLength(1);

    scheduler.advance(1);
    expect(store.toasts).toHaveLength(0);
  });

  it('dismissing twice schedules one removal', () => {
    const { store, scheduler } = setup();
    const id = store.show({ title: 'x', variant: 'info' });
    store.dismiss(id);
    store.dismiss(id);
    expect(scheduler.running).toBe(1);
  });

  it('dismiss without an id closes every open toast', () => {
    const { store } = setup();
    store.show({ title: 'x', variant: 'info' });
    store.dismiss();
    expect(store.toasts.every((t) => !t.open)).toBe(true);
  });

  it('a toast pushed out by a newer one cancels its pending removal', () => {
    const { store, scheduler } = setup();
    const first = store.show({ title: 'First', variant: 'info' });
    store.dismiss(first);
    expect(scheduler.running).toBe(1);

    const second = store.show({ title: 'Second', variant: 'info' });

    expect(scheduler.running).toBe(0);
    scheduler.advance(TOAST_REMOVE_DELAY_MS);
    expect(store.toasts.map((t) => t.id)).toEqual([second]);
  });

  it('updates a toast in place', () => {
    const { store } = setup();
    const id = store.show({ title: 'Updating Subscription', variant: 'info' });

    store.update(id, { title: 'Subscription Updated', variant: 'success' });

    expect(store.toasts[0]).toMatchObject({ id, title: 'Subscription Updated', variant: 'success', open: true });
  });

  it('remove drops the toast at once and cancels its timer', () => {
    const { store, scheduler } = setup();
    const id = store.show({ title: 'x', variant: 'info' });
    store.dismiss(id);
    store.remove(id);
    expect(store.toasts).toHaveLength(0);
    expect(scheduler.running).toBe(0);
  });

  it('is observable: a view re-renders when a toast is shown or dismissed', () => {
    const { store } = setup();
    const seen: string[] = [];
    const dispose = autorun(() => seen.push(store.toasts.map((t) => `${t.title}:${t.open}`).join(',')));

    const id = store.show({ title: 'A', variant: 'info' });
    store.dismiss(id);
    dispose();

    expect(seen).toEqual(['', 'A:true', 'A:false']);
  });

  it('maps the four kinds onto the SPEC variants: only error is destructive', () => {
    expect(specVariantOf('success')).toBe('default');
    expect(specVariantOf('info')).toBe('default');
    expect(specVariantOf('warning')).toBe('default');
    expect(specVariantOf('error')).toBe('destructive');
  });
});

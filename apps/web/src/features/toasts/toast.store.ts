import { inject, injectable } from 'inversify';
import { makeAutoObservable } from 'mobx';
import { type Timers, type ToastAction, type ToastInput, type Toasts, type ToastVariant, TYPES } from '../../app/ports';

/** SPEC §9 toast constants. */
export const TOAST_LIMIT = 1;
export const TOAST_DEFAULT_DURATION_MS = 4000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;

/** SPEC §3 Toast: id, title, description, variant, open, duration, action. */
export interface ToastItem {
  readonly id: string;
  readonly title: string;
  readonly description?: string;
  readonly variant: ToastVariant;
  readonly duration: number;
  readonly open: boolean;
  readonly action?: ToastAction;
}

/** SPEC §8: an error is the destructive variant; success, warning and info use the default one. */
export function specVariantOf(variant: ToastVariant): 'default' | 'destructive' {
  return variant === 'error' ? 'destructive' : 'default';
}

/**
 * The Toasts port as an observable store (SPEC §4): added, updated, dismissed (open false),
 * removed 1,000,000 ms after dismissal; one visible at a time. Radix closes a toast after its
 * duration or on a swipe and reports it through `dismiss`.
 */
@injectable()
export class ToastStore implements Toasts {
  toasts: readonly ToastItem[] = [];
  private sequence = 0;
  /** Stops the pending removal timer of each dismissed toast. */
  private readonly removals = new Map<string, () => void>();

  constructor(@inject(TYPES.Timers) private readonly timers: Timers) {
    makeAutoObservable<ToastStore, 'sequence' | 'removals' | 'timers'>(this, {
      sequence: false,
      removals: false,
      timers: false,
    });
  }

  show(input: ToastInput): string {
    this.sequence += 1;
    const id = `toast-${this.sequence}`;
    const toast: ToastItem = {
      id,
      title: input.title,
      ...(input.description === undefined ? {} : { description: input.description }),
      ...(input.action === undefined ? {} : { action: input.action }),
      variant: input.variant,
      duration: input.duration ?? TOAST_DEFAULT_DURATION_MS,
      open: true,
    };
    const kept = [toast, ...this.toasts].slice(0, TOAST_LIMIT);
    for (const dropped of this.toasts.filter((t) => !kept.includes(t))) this.cancelRemoval(dropped.id);
    this.toasts = kept;
    return id;
  }

  update(id: string, patch: Partial<Pick<ToastItem, 'title' | 'description' | 'variant' | 'duration'>>): void {
    this.toasts = this.toasts.map((t) => (t.id === id ? { ...t, ...patch } : t));
  }

  /** Closes one toast (or all when no id is given); it is removed later, after its exit. */
  dismiss(id?: string): void {
    const targets = this.toasts.filter((t) => (id === undefined || t.id === id) && t.open);
    if (targets.length === 0) return;
    for (const t of targets) this.scheduleRemoval(t.id);
    const closing = new Set(targets.map((t) => t.id));
    this.toasts = this.toasts.map((t) => (closing.has(t.id) ? { ...t, open: false } : t));
  }

  /** The toast's button was pressed: it closes, then its action runs (once). */
  act(id: string): void {
    const toast = this.toasts.find((t) => t.id === id && t.open);
    if (toast?.action === undefined) return;
    this.dismiss(id);
    toast.action.run();
  }

  remove(id: string): void {
    this.cancelRemoval(id);
    this.toasts = this.toasts.filter((t) => t.id !== id);
  }

  private scheduleRemoval(id: string): void {
    if (this.removals.has(id)) return;
    // A one-shot timer: the first tick stops it.
    const stop = this.timers.every(TOAST_REMOVE_DELAY_MS, () => {
      stop();
      this.removals.delete(id);
      this.remove(id);
    });
    this.removals.set(id, stop);
  }

  private cancelRemoval(id: string): void {
    const stop = this.removals.get(id);
    if (stop === undefined) return;
    stop();
    this.removals.delete(id);
  }
}

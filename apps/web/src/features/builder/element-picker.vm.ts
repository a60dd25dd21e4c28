import { type SelectedElement, selectedElementOf } from '@kiln/domain';
import { makeAutoObservable } from 'mobx';
import type { WindowMessage, WindowMessages } from '../../app/ui-ports';
import { PREVIEW_MESSAGE_SOURCE } from './console.vm';
import { previewOriginOf } from './preview';

/** Posts a message into the preview frame (the view's iframe), to exactly `origin`. */
export type PreviewFramePost = (message: unknown, origin: string) => void;

/**
 * "Select an element" in the live preview (SPEC §3 builder state: selected element). The
 * preview's bridge outlines what the pointer is over and posts the clicked element; the chat sends
 * it with the next message (appendSelectedElement). What the preview says is untrusted: only its
 * own origin is heard, and a pick is taken only while the person is picking — an app cannot slip
 * a selection into the chat on its own.
 */
export class ElementPickerVm {
  picking = false;
  selected: SelectedElement | null = null;
  private origin: string | null = null;
  private post: PreviewFramePost | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly messages: WindowMessages) {
    // The frame and the origin decide `available`, so both are observed (null at first: a plain
    // observable, which keeps the frame's function as it is).
    makeAutoObservable<ElementPickerVm, 'messages' | 'unsubscribe'>(
      this,
      { messages: false, unsubscribe: false },
      { autoBind: true },
    );
  }

  /** Whether the preview can be picked from (it runs and its frame is on screen). */
  get available(): boolean {
    return this.origin !== null && this.post !== null;
  }

  start(): void {
    if (this.unsubscribe === null) this.unsubscribe = this.messages.subscribe(this.receive);
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.picking = false;
  }

  /** The preview's address changed: only its origin is heard from now on; a pick under way ends. */
  setPreviewUrl(url: string | null): void {
    const origin = previewOriginOf(url);
    if (origin !== this.origin) this.picking = false;
    this.origin = origin;
  }

  /** The view's frame (re)loaded: it can be told to pick; a pick under way is asked again. */
  attachFrame(post: PreviewFramePost | null): void {
    this.post = post;
    if (post === null) this.picking = false;
    else if (this.picking) this.tell(true);
  }

  togglePicking(): void {
    if (!this.available) return;
    this.picking = !this.picking;
    this.tell(this.picking);
  }

  clear(): void {
    this.selected = null;
  }

  /** The selection for a message being sent, cleared: one message is about one pick. */
  take(): SelectedElement | null {
    const selected = this.selected;
    this.selected = null;
    return selected;
  }

  private tell(on: boolean): void {
    if (this.post === null || this.origin === null) return;
    try {
      this.post({ source: 'kiln-builder', type: 'pick', on }, this.origin);
    } catch {
      this.picking = false; // the frame is gone
    }
  }

  private receive(message: WindowMessage): void {
    if (this.origin === null || message.origin !== this.origin) return;
    const data = message.data;
    if (typeof data !== 'object' || data === null) return;
    const d = data as Record<string, unknown>;
    if (d['source'] !== PREVIEW_MESSAGE_SOURCE) return;
    if (d['type'] === 'pick-cancelled') {
      this.picking = false;
      return;
    }
    if (d['type'] !== 'element-selected' || !this.picking) return;
    const element = selectedElementOf(d['element']);
    this.picking = false;
    if (element !== null) this.selected = element;
  }
}

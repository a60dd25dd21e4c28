import {
  type ConsoleEntry,
  type ConsoleLogState,
  EMPTY_CONSOLE_LOG,
  appendConsoleMessage,
  clearConsoleLog,
} from './console-log';
import { makeAutoObservable } from 'mobx';
import type { Timers } from '../../app/ports';
import type { WindowMessage, WindowMessages } from '../../app/ui-ports';
import { previewOriginOf } from './preview';

/** The preview bridge's message (docs/sandbox-api.md § Live preview). */
export const PREVIEW_MESSAGE_SOURCE = 'kiln-preview';

/** The preview's 401 page asks for a fresh address (docs/sandbox-api.md § Live preview). */
export function isAuthRequired(data: unknown): boolean {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Record<string, unknown>;
  return d['source'] === PREVIEW_MESSAGE_SOURCE && d['type'] === 'auth-required';
}

/** A console message from the bridge, or null for anything else. */
export function bridgeConsoleMessage(data: unknown): { level: string; text: string } | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  if (d['source'] !== PREVIEW_MESSAGE_SOURCE || d['type'] !== 'console') return null;
  if (typeof d['level'] !== 'string' || typeof d['text'] !== 'string') return null;
  return { level: d['level'], text: d['text'] };
}

/**
 * The console panel: what the preview's bridge posts to this window (and the preview's
 * 'auth-required', handed to the builder). A message is accepted only
 * when its origin is the preview's origin (derived from the sandbox URL) — any other frame or
 * window can post messages too — and it is kept by the domain's SPEC §5 rules.
 */
export class ConsoleVm {
  log: ConsoleLogState = EMPTY_CONSOLE_LOG;
  /** Entries added since the panel was last looked at (the dock's badge). */
  unseen = 0;
  private origin: string | null = null;
  private unsubscribe: (() => void) | null = null;
  /** Called when the preview (and only the preview) says its access ran out. */
  onAuthRequired: () => void = () => undefined;

  constructor(
    private readonly messages: WindowMessages,
    private readonly timers: Timers,
  ) {
    makeAutoObservable<ConsoleVm, 'messages' | 'timers' | 'origin' | 'unsubscribe'>(
      this,
      { messages: false, timers: false, origin: false, unsubscribe: false, onAuthRequired: false },
      { autoBind: true },
    );
  }

  get entries(): readonly ConsoleEntry[] {
    return this.log.entries;
  }

  get errorCount(): number {
    return this.log.entries.filter((entry) => entry.level === 'error').length;
  }

  get warningCount(): number {
    return this.log.entries.length - this.errorCount;
  }

  /** The preview's address changed: only its origin may post from now on. */
  setPreviewUrl(url: string | null): void {
    this.origin = previewOriginOf(url);
  }

  start(): void {
    if (this.unsubscribe !== null) return;
    this.unsubscribe = this.messages.subscribe(this.receive);
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  receive(message: WindowMessage): void {
    if (this.origin === null || message.origin !== this.origin) return;
    if (isAuthRequired(message.data)) {
      this.onAuthRequired();
      return;
    }
    const consoleMessage = bridgeConsoleMessage(message.data);
    if (consoleMessage === null) return;
    const next = appendConsoleMessage(this.log, consoleMessage, this.timers.now());
    if (next === this.log) return;
    this.log = next;
    this.unseen += 1;
  }

  markSeen(): void {
    this.unseen = 0;
  }

  clear(): void {
    this.log = clearConsoleLog(this.log);
    this.unseen = 0;
  }
}

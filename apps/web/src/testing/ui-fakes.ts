// Test doubles for the ports the UI features use. Plain classes, no jest mocks: tests read
// what happened from their fields.
import type { TrackingEvent } from '@kiln/domain';
import { makeAutoObservable } from 'mobx';
import { type AnalyticsRuntimeSettings, type AnalyticsSettings, DEFAULT_ANALYTICS_SETTINGS } from '../features/analytics/analytics-settings';
import type {
  KeyValueStorage,
  SessionService,
  SessionStatus,
  SessionUser,
  ToastInput,
  Toasts,
} from '../app/ports';
import type {
  BrowserEnvironment,
  Clipboard,
  ColorSchemeMedia,
  FileSaver,
  Logger,
  Navigation,
} from '../app/ui-ports';

export class FakeToasts implements Toasts {
  readonly shown: ToastInput[] = [];
  show(toast: ToastInput): string {
    this.shown.push(toast);
    return `t${this.shown.length}`;
  }
  dismiss(): void {}
}

export class MemoryStorage implements KeyValueStorage {
  readonly data = new Map<string, string>();
  constructor(initial: Record<string, string> = {}) {
    for (const [k, v] of Object.entries(initial)) this.data.set(k, v);
  }
  get(key: string): string | null {
    return this.data.get(key) ?? null;
  }
  set(key: string, value: string): void {
    this.data.set(key, value);
  }
  remove(key: string): void {
    this.data.delete(key);
  }
}

export class FakeNavigation implements Navigation {
  readonly assigned: string[] = [];
  readonly opened: string[] = [];
  assign(url: string): void {
    this.assigned.push(url);
  }
  openInNewWindow(url: string): void {
    this.opened.push(url);
  }
}

export class FakeClipboard implements Clipboard {
  readonly written: string[] = [];
  constructor(private readonly fails = false) {}
  async writeText(text: string): Promise<void> {
    if (this.fails) throw new Error('denied');
    this.written.push(text);
  }
}

export class FakeColorSchemeMedia implements ColorSchemeMedia {
  private listeners = new Set<(dark: boolean) => void>();
  constructor(public dark = false) {}
  prefersDark(): boolean {
    return this.dark;
  }
  subscribe(listener: (dark: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  change(dark: boolean): void {
    this.dark = dark;
    for (const l of this.listeners) l(dark);
  }
}

export class RecordingLogger implements Logger {
  readonly lines: string[] = [];
  warn(message: string): void {
    this.lines.push(`warn: ${message}`);
  }
  error(message: string): void {
    this.lines.push(`error: ${message}`);
  }
}

export class RecordingSink {
  readonly events: TrackingEvent[] = [];
  constructor(private readonly fails = false) {}
  async track(event: TrackingEvent): Promise<void> {
    if (this.fails) throw new Error('analytics down');
    this.events.push(event);
  }
}

export function environment(overrides: Partial<BrowserEnvironment> = {}): BrowserEnvironment {
  return {
    hostname: 'kiln.dev',
    origin: 'https://kiln.dev',
    languages: ['en-US'],
    isDevelopment: false,
    analyticsOnLocalhost: false,
    ...overrides,
  };
}

/** An observable session whose status tests can flip. */
export class FakeSession implements SessionService {
  status: SessionStatus;
  user: SessionUser | null;

  constructor(status: SessionStatus = 'signed-out') {
    this.status = status;
    this.user = status === 'signed-in' ? { id: 'u1', email: 'ada@example.com', isSignup: false, metadata: {} } : null;
    makeAutoObservable(this);
  }

  async accessToken(): Promise<string | null> {
    return this.status === 'signed-in' ? 'token' : null;
  }
  signUp = notUsed;
  verifyCode = notUsed;
  resendCode = notUsed;
  signIn = notUsed;
  requestPasswordReset = notUsed;
  updatePassword = notUsed;
  async signOut(): Promise<void> {
    this.status = 'signed-out';
    this.user = null;
  }
}

async function notUsed(): Promise<never> {
  throw new Error('not used in this test');
}

/** Lets pending promise callbacks (and runInAction blocks after awaits) run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
}

/** The API's analytics settings as a test fixes them (default: Kiln only, not from localhost). */
export function analyticsSettings(settings: Partial<AnalyticsRuntimeSettings> = {}): Pick<AnalyticsSettings, 'load'> {
  return { load: async () => ({ ...DEFAULT_ANALYTICS_SETTINGS, ...settings }) };
}

/** Keeps what would have been downloaded. */
export class FakeFileSaver implements FileSaver {
  readonly saved: { file: Blob; fileName: string }[] = [];
  save(file: Blob, fileName: string): void {
    this.saved.push({ file, fileName });
  }
}

// Ports of the UI features (toasts, color mode, analytics, pricing, settings) that ports.ts
// does not hold: browser capabilities behind interfaces so view-models are tested with fakes.
// Adapters live in app/browser-adapters.ts; container.ui.ts binds them.

export const UI_TYPES = {
  Clipboard: Symbol.for('Clipboard'),
  Navigation: Symbol.for('Navigation'),
  Environment: Symbol.for('BrowserEnvironment'),
  ColorSchemeMedia: Symbol.for('ColorSchemeMedia'),
  AnalyticsSink: Symbol.for('AnalyticsSink'),
  Logger: Symbol.for('Logger'),
  // added with the builder
  WindowMessages: Symbol.for('WindowMessages'),
  UrlProbe: Symbol.for('UrlProbe'),
  Ids: Symbol.for('Ids'),
  // added with first-party analytics and GA4
  AnalyticsApi: Symbol.for('AnalyticsApi'),
  Gtag: Symbol.for('GtagHost'),
  PageExit: Symbol.for('PageExit'),
  // added with the file tree's actions
  FileSaver: Symbol.for('FileSaver'),
} as const;

/** Hands a file to the person (a download, as the browser saves it). */
export interface FileSaver {
  save(file: Blob, fileName: string): void;
}

/** Writes text to the system clipboard; rejects when the browser refuses. */
export interface Clipboard {
  writeText(text: string): Promise<void>;
}

/** Leaving the single-page app: external redirects (checkout, portal) and new windows. */
export interface Navigation {
  /** Replaces the current page with `url` (window.location.assign). */
  assign(url: string): void;
  /** Opens `url` (absolute or a path of this site) in a new window or tab. */
  openInNewWindow(url: string): void;
}

/** Facts about where the app runs. */
export interface BrowserEnvironment {
  /** e.g. 'kiln.dev', 'localhost'. */
  readonly hostname: string;
  /** e.g. 'https://kiln.dev' — the share link's base (SPEC §2). */
  readonly origin: string;
  /** navigator.languages (or [navigator.language]), e.g. ['en-IN', 'en']. */
  readonly languages: readonly string[];
  /** Vite's DEV flag. */
  readonly isDevelopment: boolean;
  /** VITE_ANALYTICS_ON_LOCALHOST=true sends analytics from a developer's machine (SPEC §5). */
  readonly analyticsOnLocalhost: boolean;
}

/** The operating system's light/dark preference (prefers-color-scheme). */
export interface ColorSchemeMedia {
  prefersDark(): boolean;
  /** Calls `listener` whenever the preference changes; returns the unsubscribe function. */
  subscribe(listener: (prefersDark: boolean) => void): () => void;
}

/** Where problems that are only logged go (SPEC §8: analytics and usage load errors). */
export interface Logger {
  warn(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
}

// ---------------------------------------------------------------------------------------------
// Added by the builder. Additions only.
// ---------------------------------------------------------------------------------------------

/** A `message` event posted to this window (the live preview's console bridge). */
export interface WindowMessage {
  /** The sender's origin, as the browser reports it (it cannot be forged by the sender). */
  readonly origin: string;
  readonly data: unknown;
}

/** The window's `message` events. */
export interface WindowMessages {
  /** Calls `listener` for every message; returns the unsubscribe function. */
  subscribe(listener: (message: WindowMessage) => void): () => void;
}

/** SPEC §8: whether an address answers at all (any HTTP reply counts; a network failure does not). */
export interface UrlProbe {
  isReachable(url: string): Promise<boolean>;
}

/** Fresh unique ids (command ids of the terminal). */
export interface Ids {
  next(): string;
}

/**
 * The page's Google tag (gtag.js): `window.dataLayer`, the `gtag()` function that queues into
 * it, and the script tag that processes the queue. Behind a port so the GA4 sink is tested
 * without a browser.
 */
export interface GtagHost {
  /** Queues one gtag command (defines window.dataLayer and window.gtag on first use). */
  gtag(...args: unknown[]): void;
  /** Adds `<script async src>` to the page. */
  loadScript(src: string): void;
}

/** The page being left or hidden (pagehide, visibilitychange to hidden): the last chance to send. */
export interface PageExit {
  /** Calls `listener` each time; returns the unsubscribe function. */
  onLeave(listener: () => void): () => void;
}

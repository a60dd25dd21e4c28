// Browser implementations of the UI ports (app/ui-ports.ts). Thin on purpose: no rules here.
import { injectable } from 'inversify';
import type {
  BrowserEnvironment,
  Clipboard,
  GtagHost,
  PageExit,
  FileSaver,
  ColorSchemeMedia,
  Ids,
  Logger,
  Navigation,
  UrlProbe,
  WindowMessage,
  WindowMessages,
} from './ui-ports';

@injectable()
export class BrowserClipboard implements Clipboard {
  async writeText(text: string): Promise<void> {
    if (typeof navigator === 'undefined' || navigator.clipboard === undefined) {
      throw new Error('Clipboard unavailable');
    }
    await navigator.clipboard.writeText(text);
  }
}

/** A download through a temporary object URL and a clicked link (the URL is released right after). */
@injectable()
export class BrowserFileSaver implements FileSaver {
  save(file: Blob, fileName: string): void {
    const url = URL.createObjectURL(file);
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

@injectable()
export class WindowNavigation implements Navigation {
  assign(url: string): void {
    window.location.assign(url);
  }
  openInNewWindow(url: string): void {
    window.open(url, '_blank', 'noopener');
  }
}

/** Reads the environment once, at start. */
export function readBrowserEnvironment(): BrowserEnvironment {
  const hasWindow = typeof window !== 'undefined';
  const languages =
    typeof navigator === 'undefined'
      ? []
      : navigator.languages !== undefined && navigator.languages.length > 0
        ? [...navigator.languages]
        : [navigator.language];
  return {
    hostname: hasWindow ? window.location.hostname : 'localhost',
    origin: hasWindow ? window.location.origin : 'http://localhost',
    languages,
    isDevelopment: import.meta.env?.DEV === true,
    analyticsOnLocalhost: import.meta.env?.VITE_ANALYTICS_ON_LOCALHOST === 'true',
  };
}

const DARK_QUERY = '(prefers-color-scheme: dark)';

@injectable()
export class MatchMediaColorScheme implements ColorSchemeMedia {
  prefersDark(): boolean {
    return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
  }
  subscribe(listener: (prefersDark: boolean) => void): () => void {
    if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => undefined;
    const query = window.matchMedia(DARK_QUERY);
    const onChange = (event: MediaQueryListEvent) => listener(event.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }
}

@injectable()
export class ConsoleLogger implements Logger {
  warn(message: string, detail?: unknown): void {
    console.warn(message, detail ?? '');
  }
  error(message: string, detail?: unknown): void {
    console.error(message, detail ?? '');
  }
}

// ── Added by the builder ─────────────────────────────────────────────────────────────────────

@injectable()
export class WindowMessageSource implements WindowMessages {
  subscribe(listener: (message: WindowMessage) => void): () => void {
    if (typeof window === 'undefined') return () => undefined;
    const onMessage = (event: MessageEvent) => listener({ origin: event.origin, data: event.data });
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }
}

/** SPEC §8 probe: an opaque no-cors request; any reply within 5 s means the address is reachable. */
@injectable()
export class FetchUrlProbe implements UrlProbe {
  async isReachable(url: string): Promise<boolean> {
    try {
      await fetch(url, { mode: 'no-cors', cache: 'no-store', credentials: 'include', signal: AbortSignal.timeout(5000) });
      return true;
    } catch {
      return false;
    }
  }
}

@injectable()
export class CryptoIds implements Ids {
  private sequence = 0;
  next(): string {
    if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
    this.sequence += 1;
    return `id-${Date.now().toString(36)}-${this.sequence}`;
  }
}

type GtagWindow = Window & { dataLayer?: unknown[]; gtag?: (...args: unknown[]) => void };

/** The real Google tag on this page. */
@injectable()
export class WindowGtagHost implements GtagHost {
  gtag(...args: unknown[]): void {
    const w = window as GtagWindow;
    w.dataLayer = w.dataLayer ?? [];
    // gtag.js only understands `arguments` objects in the data layer, not arrays.
    w.gtag =
      w.gtag ??
      function gtag() {
        // eslint-disable-next-line prefer-rest-params -- gtag.js reads Arguments objects
        (w.dataLayer as unknown[]).push(arguments);
      };
    w.gtag(...args);
  }

  loadScript(src: string): void {
    const script = document.createElement('script');
    script.async = true;
    script.src = src;
    document.head.appendChild(script);
  }
}

/** pagehide, and visibilitychange to hidden (the last event mobile browsers reliably fire). */
@injectable()
export class DocumentPageExit implements PageExit {
  onLeave(listener: () => void): () => void {
    if (typeof window === 'undefined' || typeof document === 'undefined') return () => undefined;
    const onHide = () => {
      if (document.visibilityState === 'hidden') listener();
    };
    window.addEventListener('pagehide', listener);
    document.addEventListener('visibilitychange', onHide);
    return () => {
      window.removeEventListener('pagehide', listener);
      document.removeEventListener('visibilitychange', onHide);
    };
  }
}

// Browser implementations of the UI ports (app/ui-ports.ts). Thin on purpose: no rules here.
import { injectable } from 'inversify';
import type {
  BrowserEnvironment,
  Clipboard,
  ColorSchemeMedia,
  Logger,
  Navigation,
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

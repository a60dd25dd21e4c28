import { parseTheme, type Theme } from '@kiln/domain';

/** SPEC §2: the theme builder accepts messages of these three types (and nothing else). */
export type ThemeMessage =
  | { readonly type: 'apply-theme'; readonly theme: Theme }
  | { readonly type: 'theme-generated'; readonly theme: Theme }
  | { readonly type: 'close-dialog' };

export interface ThemeDialogState {
  /** SPEC §3 builder flag "theme dialog open". */
  readonly open: boolean;
  /** The theme the preview swatches show and "Apply theme" writes. */
  readonly selected: Theme;
  /** The last generated theme (offered next to the presets). */
  readonly generated: Theme | null;
}

export interface ThemeTransition {
  readonly state: ThemeDialogState;
  /** A theme to write into the app's stylesheet, when the message asks for it. */
  readonly apply: Theme | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A well-formed theme message, or null for anything else (wrong type, unsafe theme, not an object). */
export function parseThemeMessage(data: unknown): ThemeMessage | null {
  if (!isRecord(data)) return null;
  switch (data['type']) {
    case 'close-dialog':
      return { type: 'close-dialog' };
    case 'apply-theme':
    case 'theme-generated': {
      const theme = parseTheme(data['theme']);
      return theme === null ? null : { type: data['type'], theme };
    }
    default:
      return null;
  }
}

/** The dialog's state after a message; `apply-theme` also names the theme to write. */
export function reduceThemeDialog(state: ThemeDialogState, message: ThemeMessage): ThemeTransition {
  switch (message.type) {
    case 'apply-theme':
      return { state: { ...state, selected: message.theme }, apply: message.theme };
    case 'theme-generated':
      return { state: { ...state, selected: message.theme, generated: message.theme }, apply: null };
    case 'close-dialog':
      return { state: { ...state, open: false }, apply: null };
  }
}

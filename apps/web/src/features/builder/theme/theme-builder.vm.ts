import { generateTheme, matchingTheme, parseTheme, readTheme, THEME_PRESETS, THEME_STYLESHEET_PATH, type Theme, type ThemeApplyOutcome } from '@kiln/domain';
import { makeAutoObservable, runInAction } from 'mobx';
import type { Toasts } from '../../../app/ports';
import type { WindowMessage, WindowMessages } from '../../../app/ui-ports';
import type { SandboxApi } from '../../../api/sandbox.api';
import { parseThemeMessage, reduceThemeDialog, type ThemeDialogState, type ThemeMessage } from './theme-messages';

export type ApplyOutcome = ThemeApplyOutcome;

export interface Swatch {
  readonly name: string;
  readonly value: string;
}

const SWATCH_NAMES = ['background', 'foreground', 'primary', 'secondary', 'accent', 'muted', 'border', 'destructive'] as const;

const errorText = (error: unknown): string => (error instanceof Error ? error.message : 'Request failed');

const DEFAULT_THEME = THEME_PRESETS[0] ?? generateTheme('neutral');

/**
 * The theme builder dialog (SPEC §2): presets, a theme generated from a colour or mood, light and
 * dark swatches, and Apply — the server merges the theme into src/index.css (SPEC §5) under the
 * project's turn lock, writes it (the preview follows by HMR) and saves it as a version
 * (apply-theme, docs/sandbox-api.md). The dialog's own controls and window
 * messages from this app's origin go through the same message reducer; a failed application
 * shows an error toast and is rethrown to the caller (SPEC §8).
 */
export class ThemeBuilderVm {
  state: ThemeDialogState = { open: false, selected: DEFAULT_THEME, generated: null };
  seed = '';
  applying = false;
  readonly presets: readonly Theme[] = THEME_PRESETS;
  /**
   * The theme the app has now, read from its stylesheet when the dialog opens: the matching preset,
   * or "Current theme" (the stylesheet's own variables) when none matches; null when unknown.
   */
  current: Theme | null = null;

  private projectId = '';
  private unsubscribe: (() => void) | null = null;
  private onApplied: () => Promise<void> | void = () => undefined;

  constructor(
    private readonly api: SandboxApi,
    private readonly toasts: Toasts,
    private readonly messages: WindowMessages,
    /** Only messages from this origin (the builder's own) are accepted. */
    private readonly ownOrigin: string,
  ) {
    makeAutoObservable<ThemeBuilderVm, 'api' | 'toasts' | 'messages' | 'ownOrigin' | 'projectId' | 'unsubscribe' | 'onApplied'>(
      this,
      { api: false, toasts: false, messages: false, ownOrigin: false, projectId: false, unsubscribe: false, onApplied: false, presets: false },
      { autoBind: true },
    );
  }

  setProject(projectId: string, onApplied: () => Promise<void> | void): void {
    this.projectId = projectId;
    this.onApplied = onApplied;
  }

  get open(): boolean {
    return this.state.open;
  }

  get selected(): Theme {
    return this.state.selected;
  }

  get generated(): Theme | null {
    return this.state.generated;
  }

  get lightSwatches(): readonly Swatch[] {
    return swatches(this.state.selected.light);
  }

  get darkSwatches(): readonly Swatch[] {
    return swatches(this.state.selected.dark);
  }

  /** The current theme first when it is no preset, the presets, and the generated theme when its name is new. */
  get themes(): readonly Theme[] {
    const current = this.current;
    const list = current === null || this.presets.some((t) => t.name === current.name) ? [...this.presets] : [current, ...this.presets];
    const generated = this.state.generated;
    if (generated !== null && !list.some((t) => t.name === generated.name)) list.push(generated);
    return list;
  }

  /** Whether `theme` is the one the app has now. */
  isCurrent(theme: Theme): boolean {
    return this.current !== null && theme.name === this.current.name;
  }

  isSelected(theme: Theme): boolean {
    return theme.name === this.state.selected.name;
  }

  get canGenerate(): boolean {
    return this.seed.trim() !== '';
  }

  openDialog(): void {
    this.state = { ...this.state, open: true };
    this.unsubscribe ??= this.messages.subscribe(this.onWindowMessage);
    void this.showCurrentTheme();
  }

  /**
   * Reads src/index.css and selects the theme it sets (unless something else was picked
   * meanwhile). An unreadable stylesheet leaves the selection as it was: Apply reports that.
   */
  async showCurrentTheme(): Promise<void> {
    const selectedBefore = this.state.selected;
    let stylesheet: string;
    try {
      stylesheet = await this.api.readFile(this.projectId, THEME_STYLESHEET_PATH);
    } catch {
      return;
    }
    const read = readTheme(stylesheet);
    runInAction(() => {
      this.current = read === null ? null : (matchingTheme(read, this.presets) ?? read);
      if (this.current !== null && this.state.open && this.state.selected === selectedBefore) this.state = { ...this.state, selected: this.current };
    });
  }

  closeDialog(): void {
    void this.dispatch({ type: 'close-dialog' });
  }

  /** Unmounting the builder: the dialog closes and window messages are no longer heard. */
  dispose(): void {
    this.stopListening();
    this.state = { ...this.state, open: false };
  }

  select(theme: Theme): void {
    this.state = { ...this.state, selected: theme };
  }

  setSeed(seed: string): void {
    this.seed = seed;
  }

  generate(): void {
    if (!this.canGenerate) return;
    void this.dispatch({ type: 'theme-generated', theme: generateTheme(this.seed) });
  }

  /** "Apply theme": rejects (after the error toast) when the server could not apply it (no stylesheet, a turn running, …). */
  apply(): Promise<ApplyOutcome | null> {
    return this.dispatch({ type: 'apply-theme', theme: this.state.selected });
  }

  /** One message of the SPEC §2 protocol; resolves with the outcome when it applied a theme. */
  async dispatch(message: ThemeMessage): Promise<ApplyOutcome | null> {
    const { state, apply } = reduceThemeDialog(this.state, message);
    this.state = state;
    if (!state.open) this.stopListening();
    return apply === null ? null : this.applyTheme(apply);
  }

  private onWindowMessage(message: WindowMessage): void {
    if (message.origin !== this.ownOrigin) return;
    const parsed = parseThemeMessage(message.data);
    if (parsed === null) return;
    // A failure has been shown as a toast already; nobody else waits for a window message.
    this.dispatch(parsed).catch(() => undefined);
  }

  private stopListening(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** Asks the server to apply the theme and tells the outcome; SPEC §8: failures are shown and rethrown. */
  async applyTheme(input: Theme): Promise<ApplyOutcome> {
    const theme = parseTheme(input);
    if (theme === null) throw new Error('The theme is not valid');
    const projectId = this.projectId;
    this.applying = true;
    try {
      const result = await this.api.applyTheme(projectId, theme);
      if (result.outcome === 'kept-original') {
        this.toasts.show({
          title: 'Nothing was changed',
          description: `The braces in ${THEME_STYLESHEET_PATH} do not balance, so the theme could not be merged safely. Fix the stylesheet and try again.`,
          variant: 'warning',
        });
        return 'kept-original';
      }
      if (result.outcome === 'unchanged') {
        this.toasts.show({ title: `${theme.name} is already applied`, variant: 'info' });
        return 'unchanged';
      }
      const commit = result.commit ?? { success: false, message: 'no version was reported' };
      if (commit.success) this.toasts.show({ title: `Theme ${theme.name} applied`, variant: 'success' });
      else this.toasts.show({ title: `Theme ${theme.name} applied`, description: `The version was not saved: ${commit.message}`, variant: 'warning' });
      runInAction(() => {
        this.state = { ...this.state, open: false };
        this.stopListening();
      });
      await this.onApplied();
      return 'applied';
    } catch (error) {
      this.toasts.show({ title: 'The theme could not be applied', description: errorText(error), variant: 'error' });
      throw error;
    } finally {
      runInAction(() => (this.applying = false));
    }
  }
}

function swatches(vars: Readonly<Record<string, string>>): readonly Swatch[] {
  return SWATCH_NAMES.flatMap((name) => {
    const value = vars[name];
    return value === undefined ? [] : [{ name, value }];
  });
}

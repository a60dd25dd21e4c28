import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { type KeyValueStorage, STORAGE_KEYS, TYPES } from '../../app/ports';
import { type ColorSchemeMedia, UI_TYPES } from '../../app/ui-ports';

/** SPEC §2: a color mode kept locally: follow the system, or always light, or always dark. */
export const COLOR_MODES = ['system', 'light', 'dark'] as const;
export type ColorMode = (typeof COLOR_MODES)[number];
export type ResolvedColorMode = 'light' | 'dark';

export function parseColorMode(raw: string | null): ColorMode | null {
  return (COLOR_MODES as readonly string[]).includes(raw ?? '') ? (raw as ColorMode) : null;
}

const NEXT: Record<ColorMode, ColorMode> = { system: 'light', light: 'dark', dark: 'system' };

/**
 * The color mode: the stored preference (system when nothing is stored, so the mode follows the
 * system's dark or light setting from the start), the live system setting, and modes forced by
 * pages that only work in one of them (the latest forcing page wins while it is mounted).
 */
@injectable()
export class ColorModeStore {
  preference: ColorMode;
  systemPrefersDark: boolean;
  private forcedBy: ReadonlyArray<{ readonly token: symbol; readonly mode: ResolvedColorMode }> = [];

  constructor(
    @inject(TYPES.Storage) private readonly storage: KeyValueStorage,
    @inject(UI_TYPES.ColorSchemeMedia) media: ColorSchemeMedia,
  ) {
    this.preference = parseColorMode(storage.get(STORAGE_KEYS.colorMode)) ?? 'system';
    this.systemPrefersDark = media.prefersDark();
    makeAutoObservable<ColorModeStore, 'storage'>(this, { storage: false });
    media.subscribe((dark) => runInAction(() => (this.systemPrefersDark = dark)));
  }

  /** The mode forced by the current page, if any. */
  get forced(): ResolvedColorMode | null {
    return this.forcedBy.at(-1)?.mode ?? null;
  }

  /** What the page is painted in. */
  get resolved(): ResolvedColorMode {
    if (this.forced !== null) return this.forced;
    if (this.preference === 'system') return this.systemPrefersDark ? 'dark' : 'light';
    return this.preference;
  }

  setPreference(mode: ColorMode): void {
    this.preference = mode;
    this.storage.set(STORAGE_KEYS.colorMode, mode);
  }

  /** The toggle: system → light → dark → system. */
  cycle(): void {
    this.setPreference(NEXT[this.preference]);
  }

  get nextPreference(): ColorMode {
    return NEXT[this.preference];
  }

  /** Forces `mode` until the returned release function is called (a page's lifetime). */
  force(mode: ResolvedColorMode): () => void {
    const token = Symbol('forced color mode');
    this.forcedBy = [...this.forcedBy, { token, mode }];
    return () => this.release(token);
  }

  private release(token: symbol): void {
    this.forcedBy = this.forcedBy.filter((f) => f.token !== token);
  }
}

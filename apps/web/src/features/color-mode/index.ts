export { ColorModeStore, COLOR_MODES, parseColorMode, type ColorMode, type ResolvedColorMode } from './color-mode.store';
export { ColorModePicker, ColorModeSync, ColorModeToggle, useForcedColorMode } from './color-mode.view';

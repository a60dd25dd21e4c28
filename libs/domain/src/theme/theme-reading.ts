// Reading a theme back from an app's stylesheet (src/index.css): the counterpart of mergeTheme,
// so the theme builder can show which theme an app has now. Pure.
import { isSafeCssValue, isSafeFontUrl, parseTheme, type Theme } from './theme.js';

export const CURRENT_THEME_NAME = 'Current theme';

const DECLARATION = /--([a-zA-Z][a-zA-Z0-9-]*)\s*:\s*([^;]*)/g;
const FONT_IMPORT = /@import\s+(?:url\(\s*)?(['"]?)([^'")\s]+)\1\s*\)?/g;
const isFontImportUrl = (url: string): boolean => /fonts\.googleapis\.com|fonts\.bunny\.net|[?&]family=/.test(url);

/** The stylesheet without comments; strings are kept (a `{` inside one is rare in a theme file). */
const withoutComments = (css: string): string => css.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, ' ');

const normalize = (value: string): string => value.trim().replace(/\s+/g, ' ');

type Mode = 'light' | 'dark' | null;

/** Which mode a block's variables set: `:root` light, `.dark` (or `:root` in a dark media query) dark. */
function modeOf(prelude: string, outer: readonly string[]): Mode {
  const selectors = prelude.split(',').map((s) => s.trim());
  if (selectors.some((s) => s === '.dark' || s.startsWith('.dark ') || s === ':root.dark' || s === 'html.dark')) return 'dark';
  if (!selectors.includes(':root')) return null;
  return outer.some((p) => /^@media\b.*prefers-color-scheme\s*:\s*dark/.test(p)) ? 'dark' : 'light';
}

/** The custom properties each mode's blocks declare, in order (a later one wins). */
function declaredVariables(css: string): { light: Map<string, string>; dark: Map<string, string> } {
  const vars = { light: new Map<string, string>(), dark: new Map<string, string>() };
  const stack: { prelude: string; bodyStart: number }[] = [];
  let statementStart = 0;
  for (let i = 0; i < css.length; i++) {
    const c = css[i];
    if (c === '{') {
      stack.push({ prelude: normalize(css.slice(statementStart, i)), bodyStart: i + 1 });
      statementStart = i + 1;
    } else if (c === '}') {
      const block = stack.pop();
      statementStart = i + 1;
      if (block === undefined) continue;
      const mode = modeOf(block.prelude, stack.map((b) => b.prelude));
      if (mode === null) continue;
      // Only the block's own declarations: nested blocks' text is skipped.
      const body = css.slice(block.bodyStart, i).replace(/\{[^{}]*\}/g, '');
      for (const [, name, value] of body.matchAll(DECLARATION)) {
        if (name !== undefined && value !== undefined && isSafeCssValue(value)) vars[mode].set(name, normalize(value));
      }
    } else if (c === ';') {
      statementStart = i + 1;
    }
  }
  return vars;
}

/**
 * The theme a stylesheet sets now, named `name`: the custom properties of its `:root` block
 * (light) and of `.dark` or a dark `prefers-color-scheme` `:root` (dark), its font stylesheet
 * imports and `--radius`; checked by parseTheme. Null when it sets no variables or is unsafe.
 * `--font-sans` is left out: mergeTheme derives it from the fonts.
 */
export function readTheme(stylesheet: string, name: string = CURRENT_THEME_NAME): Theme | null {
  const css = withoutComments(stylesheet);
  const { light, dark } = declaredVariables(css);
  if (light.size === 0 && dark.size === 0) return null;
  const radius = light.get('radius');
  light.delete('radius');
  light.delete('font-sans');
  dark.delete('radius');
  dark.delete('font-sans');
  const fonts = [...css.matchAll(FONT_IMPORT)].map((m) => m[2] ?? '').filter((url) => isFontImportUrl(url) && isSafeFontUrl(url));
  return parseTheme({ name, light: Object.fromEntries(light), dark: Object.fromEntries(dark), fonts, ...(radius === undefined ? {} : { radius }) });
}

/**
 * The first of `themes` the current one is: every light and dark variable the candidate sets has
 * the same value (whitespace aside), and so do its radius and font stylesheets when it has them.
 */
export function matchingTheme(current: Theme, themes: readonly Theme[]): Theme | null {
  const same = (want: Readonly<Record<string, string>>, have: Readonly<Record<string, string>>): boolean =>
    Object.entries(want).every(([key, value]) => have[key] !== undefined && normalize(have[key]) === normalize(value));
  return (
    themes.find(
      (theme) =>
        same(theme.light, current.light) &&
        same(theme.dark, current.dark) &&
        (theme.radius === undefined || theme.radius === current.radius) &&
        theme.fonts.every((url) => current.fonts.includes(url)),
    ) ?? null
  );
}

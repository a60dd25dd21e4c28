// Themes of a generated app (SPEC §2 theme builder, §5 theme merge): CSS variables for the light
// and dark modes, font stylesheets, a radius; merged into the app's stylesheet (src/index.css).
// Pure: no I/O, no randomness (a generated theme comes from a hash of its seed text).

/** Variable name (without the leading `--`) → CSS value, e.g. `primary` → `oklch(0.55 0.17 240)`. */
export type ThemeVariables = Readonly<Record<string, string>>;

export interface Theme {
  readonly name: string;
  readonly light: ThemeVariables;
  readonly dark: ThemeVariables;
  /** Font stylesheet URLs (Google-Fonts style, `family=Inter:wght@400;700`). */
  readonly fonts: readonly string[];
  /** A CSS length, e.g. `0.625rem`. */
  readonly radius?: string;
}

export interface ThemeMergeResult {
  readonly stylesheet: string;
  /** True when the merge would have left unbalanced braces: the original stylesheet is returned. */
  readonly keptOriginal: boolean;
}

export const UNKNOWN_FONT = 'Unknown Font';

/** The variables the starter template and the generated apps read (the shadcn names). */
export const THEME_VARIABLE_NAMES = [
  'background',
  'foreground',
  'card',
  'card-foreground',
  'primary',
  'primary-foreground',
  'secondary',
  'secondary-foreground',
  'muted',
  'muted-foreground',
  'accent',
  'accent-foreground',
  'destructive',
  'border',
  'input',
  'ring',
] as const;

// ── Validation ──────────────────────────────────────────────────────────────────────────────

const VARIABLE_NAME = /^(?:--)?[a-zA-Z][a-zA-Z0-9-]*$/;
const FONT_SANS_FALLBACK = 'ui-sans-serif, system-ui, sans-serif';

const bareName = (name: string): string => (name.startsWith('--') ? name.slice(2) : name);

/** A variable name parseTheme accepts: `primary` or `--primary` (letters, digits, dashes; a letter first). */
export function isThemeVariableName(name: string): boolean {
  return VARIABLE_NAME.test(name);
}

/** A value that cannot break out of its declaration: no `;`, braces, comment marks or line breaks. */
export function isSafeCssValue(value: string): boolean {
  return value.trim() !== '' && value.length <= 200 && !/[;{}\n\r]|\/\*|\*\//.test(value);
}

/** An http(s) stylesheet address that fits inside `url('…')`. */
export function isSafeFontUrl(url: string): boolean {
  if (url.length > 500 || /[\s'"()\\{}]/.test(url)) return false;
  return /^https?:\/\/[^/]+/.test(url);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseVariables(value: unknown): Record<string, string> | null {
  if (!isRecord(value)) return null;
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (!isThemeVariableName(name) || typeof v !== 'string' || !isSafeCssValue(v)) return null;
    out[bareName(name)] = v.trim();
  }
  return out;
}

/** A theme from untrusted data (a window message), or null when its shape or values are unsafe. */
export function parseTheme(value: unknown): Theme | null {
  if (!isRecord(value)) return null;
  const { name, light, dark, fonts, radius } = value;
  if (typeof name !== 'string' || name.trim() === '' || name.length > 80) return null;
  const lightVars = parseVariables(light);
  const darkVars = parseVariables(dark);
  if (lightVars === null || darkVars === null) return null;
  const fontList = fonts === undefined ? [] : fonts;
  if (!Array.isArray(fontList) || !fontList.every((url): url is string => typeof url === 'string' && isSafeFontUrl(url))) return null;
  if (radius !== undefined && (typeof radius !== 'string' || !isSafeCssValue(radius))) return null;
  return { name: name.trim(), light: lightVars, dark: darkVars, fonts: fontList, ...(radius === undefined ? {} : { radius: radius.trim() }) };
}

// ── Fonts ───────────────────────────────────────────────────────────────────────────────────

/** `…?family=Inter:wght@400;700` → 'Inter'; `family=Open+Sans` → 'Open Sans'; otherwise 'Unknown Font'. */
export function fontNameFromUrl(url: string): string {
  const match = /[?&]family=([^&#]*)/.exec(url);
  if (match === null) return UNKNOWN_FONT;
  let family = (match[1] ?? '').replace(/\+/g, ' ');
  try {
    family = decodeURIComponent(family);
  } catch {
    // keep the raw text
  }
  const name = (family.split(':')[0] ?? '').split('|')[0]?.trim() ?? '';
  return name === '' || /['";{}\\]/.test(name) ? UNKNOWN_FONT : name;
}

/** The Google Fonts stylesheet of a family with the usual weights. */
export function googleFontUrl(family: string): string {
  return `https://fonts.googleapis.com/css2?family=${family.trim().replace(/\s+/g, '+')}:wght@400;500;600;700&display=swap`;
}

const isFontImportUrl = (url: string): boolean => /fonts\.googleapis\.com|fonts\.bunny\.net|[?&]family=/.test(url);

// ── Scanning (comments and strings skipped) ─────────────────────────────────────────────────

interface Block {
  readonly start: number;
  readonly prelude: string;
  /** Index of `{`. */
  readonly open: number;
  /** Index of the matching `}`. */
  readonly close: number;
}

interface Scan {
  readonly blocks: readonly Block[];
  /** End index (after `;`) of each statement at this level starting with @import. */
  readonly importEnds: readonly number[];
}

/** Index after a comment or string starting at `i`, or `i` when there is none. */
function skipAtom(css: string, i: number): number {
  const c = css[i];
  if (c === '/' && css[i + 1] === '*') {
    const end = css.indexOf('*/', i + 2);
    return end === -1 ? css.length : end + 2;
  }
  if (c === '"' || c === "'") {
    let j = i + 1;
    while (j < css.length && css[j] !== c && css[j] !== '\n') j += css[j] === '\\' ? 2 : 1;
    return Math.min(j + 1, css.length);
  }
  return i;
}

/** Whether every `{` has its `}` (outside comments and strings). */
export function bracesBalanced(css: string): boolean {
  let depth = 0;
  for (let i = 0; i < css.length; ) {
    const next = skipAtom(css, i);
    if (next !== i) {
      i = next;
      continue;
    }
    if (css[i] === '{') depth += 1;
    else if (css[i] === '}' && --depth < 0) return false;
    i += 1;
  }
  return depth === 0;
}

/** The blocks and @import statements directly inside [from, to) (braces assumed balanced). */
function scanLevel(css: string, from: number, to: number): Scan {
  const blocks: Block[] = [];
  const importEnds: number[] = [];
  let depth = 0;
  let statementStart = from;
  let open = -1;
  for (let i = from; i < to; ) {
    const next = skipAtom(css, i);
    if (next !== i) {
      i = next;
      continue;
    }
    const c = css[i];
    if (c === '{') {
      if (depth === 0) open = i;
      depth += 1;
    } else if (c === '}') {
      depth -= 1;
      if (depth === 0) {
        const prelude = stripComments(css.slice(statementStart, open)).trim();
        blocks.push({ start: statementStart + leadingSpace(css.slice(statementStart, open)), prelude, open, close: i });
        statementStart = i + 1;
      }
    } else if (c === ';' && depth === 0) {
      if (/^@import\b/.test(stripComments(css.slice(statementStart, i)).trim())) importEnds.push(i + 1);
      statementStart = i + 1;
    }
    i += 1;
  }
  return { blocks, importEnds };
}

const stripComments = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, ' ');

/** Length of the whitespace and comments before the prelude's first word. */
function leadingSpace(text: string): number {
  const match = /^(?:\s|\/\*[\s\S]*?\*\/)*/.exec(text);
  return match === null ? 0 : match[0].length;
}

const selectors = (prelude: string): string[] => prelude.split(',').map((s) => s.trim());
const isRootBlock = (b: Block): boolean => selectors(b.prelude).includes(':root');
const isDarkBlock = (b: Block): boolean => selectors(b.prelude).some((s) => s === '.dark' || s.endsWith('.dark'));
const isDarkMedia = (b: Block): boolean => /^@media\b/.test(b.prelude) && /prefers-color-scheme\s*:\s*dark/.test(b.prelude);
const isThemeBlock = (b: Block): boolean => /^@theme\b/.test(b.prelude);
const isBaseLayer = (b: Block): boolean => /^@layer\s+base$/.test(b.prelude);

// ── Declarations ────────────────────────────────────────────────────────────────────────────

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function indentOf(body: string): string {
  const match = /\n([ \t]+)\S/.exec(body);
  return match?.[1] ?? '  ';
}

/** The block body with each `--name: value` replaced, or appended when missing. */
function setDeclarations(body: string, vars: readonly (readonly [string, string])[]): string {
  let out = body;
  const missing: [string, string][] = [];
  for (const [name, value] of vars) {
    const source = `(^|[;{\\s])(--${escapeRegExp(name)}\\s*:)[^;}]*`;
    const pattern = new RegExp(source, 'g');
    if (new RegExp(source).test(out)) out = out.replace(pattern, (_m, before: string, head: string) => `${before}${head} ${value}`);
    else missing.push([name, value]);
  }
  if (missing.length === 0) return out;
  const indent = indentOf(out);
  const content = out.trimEnd();
  const trailing = out.slice(content.length);
  const lines = missing.map(([name, value]) => `\n${indent}--${name}: ${value};`).join('');
  const separator = content.trim() === '' || /[;{]\s*$/.test(content) || /\*\/\s*$/.test(content) ? '' : ';';
  const closing = trailing.includes('\n') ? trailing : '\n';
  return `${content}${separator}${lines}${closing}`;
}

const safeEntries = (vars: ThemeVariables): [string, string][] =>
  Object.entries(vars)
    .filter(([name, value]) => VARIABLE_NAME.test(name) && isSafeCssValue(value))
    .map(([name, value]) => [bareName(name), value.trim()]);

// ── Merge ───────────────────────────────────────────────────────────────────────────────────

function dedent(text: string): string {
  const lines = text.split('\n');
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0);
  const min = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((l) => l.slice(Math.min(min, /^[ \t]*/.exec(l)?.[0].length ?? 0))).join('\n').trim();
}

/** `@layer base { :root {…} .dark {…} }` → the blocks without the wrapper (other base layers stay). */
function stripBaseLayerWrappers(css: string): string {
  let out = css;
  for (;;) {
    const wrapper = scanLevel(out, 0, out.length).blocks.find((b) => {
      if (!isBaseLayer(b)) return false;
      const inner = scanLevel(out, b.open + 1, b.close).blocks;
      return inner.some((x) => isRootBlock(x) || isDarkBlock(x));
    });
    if (wrapper === undefined) return out;
    out = out.slice(0, wrapper.start) + dedent(out.slice(wrapper.open + 1, wrapper.close)) + out.slice(wrapper.close + 1);
  }
}

const FONT_IMPORT = /^[ \t]*@import\s+url\(\s*(['"]?)([^'")]*)\1\s*\)[^;\n]*;[ \t]*(?:\r?\n)?/gm;

function removeFontImports(css: string): string {
  return css.replace(FONT_IMPORT, (line: string, _q: string, url: string) => (isFontImportUrl(url) ? '' : line));
}

/** Font imports go first (after @charset): CSS ignores an @import that follows other rules. */
function addFontImports(css: string, fonts: readonly string[]): string {
  if (fonts.length === 0) return css;
  const lines = fonts.map((url) => `@import url('${url}');\n`).join('');
  const charset = /^@charset[^;]*;[ \t]*\n?/.exec(css);
  const at = charset === null ? 0 : charset[0].length;
  return css.slice(0, at) + lines + css.slice(at);
}

interface Edit {
  readonly open: number;
  readonly close: number;
  readonly vars: readonly (readonly [string, string])[];
}

function fontSansValue(fonts: readonly string[]): string | null {
  const first = fonts[0];
  if (first === undefined) return null;
  return `'${fontNameFromUrl(first)}', ${FONT_SANS_FALLBACK}`;
}

/**
 * Merges a theme into a stylesheet (SPEC §5): sets its variables in the `:root` and dark blocks
 * (`.dark`, or `:root` inside `@media (prefers-color-scheme: dark)`), creating them when missing;
 * strips an `@layer base` wrapper around them; puts the font stylesheets' `@import url(…)` first
 * and sets `--font-sans` (in `@theme` when there is one). Braces left unbalanced keep the original.
 */
export function mergeTheme(stylesheet: string, theme: Theme): ThemeMergeResult {
  const kept: ThemeMergeResult = { stylesheet, keptOriginal: true };
  if (!bracesBalanced(stylesheet)) return kept;

  const fonts = theme.fonts.filter(isSafeFontUrl);
  let css = stripBaseLayerWrappers(stylesheet);
  if (fonts.length > 0) css = removeFontImports(css);

  const top = scanLevel(css, 0, css.length);
  const lightTargets = top.blocks.filter((b) => isRootBlock(b) && !isDarkBlock(b));
  const darkTargets = top.blocks.filter(isDarkBlock);
  for (const media of top.blocks.filter(isDarkMedia)) {
    darkTargets.push(...scanLevel(css, media.open + 1, media.close).blocks.filter(isRootBlock));
  }
  const themeBlocks = top.blocks.filter(isThemeBlock);

  const fontSans = fontSansValue(fonts);
  const light = new Map(safeEntries(theme.light));
  if (theme.radius !== undefined && isSafeCssValue(theme.radius)) light.set('radius', theme.radius.trim());
  if (fontSans !== null && themeBlocks.length === 0) light.set('font-sans', fontSans);
  const lightVars = [...light];
  const darkVars = [...new Map(safeEntries(theme.dark))];

  const edits: Edit[] = [
    ...lightTargets.map((b) => ({ open: b.open, close: b.close, vars: lightVars })),
    ...darkTargets.map((b) => ({ open: b.open, close: b.close, vars: darkVars })),
    ...(fontSans === null ? [] : themeBlocks.map((b) => ({ open: b.open, close: b.close, vars: [['font-sans', fontSans]] as const }))),
  ].sort((a, b) => b.open - a.open);
  for (const edit of edits) {
    css = css.slice(0, edit.open + 1) + setDeclarations(css.slice(edit.open + 1, edit.close), edit.vars) + css.slice(edit.close);
  }

  // No theme section: it merges as an empty one.
  const created: string[] = [];
  if (lightTargets.length === 0) created.push(`:root {${setDeclarations('', lightVars)}}`);
  if (darkTargets.length === 0 && darkVars.length > 0) created.push(`.dark {${setDeclarations('', darkVars)}}`);
  if (created.length > 0) {
    const importEnds = scanLevel(css, 0, css.length).importEnds;
    const at = importEnds.length === 0 ? 0 : (importEnds[importEnds.length - 1] ?? 0);
    const before = css.slice(0, at);
    const after = css.slice(at).replace(/^\s*\n/, '');
    const block = created.join('\n\n');
    css = at === 0 ? `${block}\n\n${after}` : `${before}\n\n${block}\n${after === '' ? '' : `\n${after}`}`;
  }

  css = addFontImports(css, fonts);
  if (!bracesBalanced(css)) return kept;
  return { stylesheet: css, keptOriginal: false };
}

// ── Palettes ────────────────────────────────────────────────────────────────────────────────

const n = (value: number, digits = 3): string => String(Number(value.toFixed(digits)));
const ok = (l: number, c: number, h: number): string => (c === 0 ? `oklch(${n(l)} 0 0)` : `oklch(${n(l)} ${n(c)} ${n(h, 1)})`);

/** A light and a dark palette around one hue; `chroma` 0 is a neutral grey theme. */
export function paletteFromHue(input: { name: string; hue: number; chroma: number; font: string; radius?: string }): Theme {
  const h = ((input.hue % 360) + 360) % 360;
  const c = Math.max(0, Math.min(0.3, input.chroma));
  const tint = c === 0 ? 0 : Math.min(0.02, c / 8);
  const light: Record<string, string> = {
    background: ok(0.995, tint / 4, h),
    foreground: ok(0.16, tint, h),
    card: ok(1, 0, h),
    'card-foreground': ok(0.16, tint, h),
    primary: c === 0 ? ok(0.205, 0, h) : ok(0.55, c, h),
    'primary-foreground': ok(0.985, tint / 2, h),
    secondary: ok(0.955, tint * 1.5, h),
    'secondary-foreground': ok(0.25, tint * 2, h),
    muted: ok(0.965, tint, h),
    'muted-foreground': ok(0.52, tint * 1.5, h),
    accent: ok(0.94, c === 0 ? 0 : Math.min(0.06, c / 3), h),
    'accent-foreground': ok(0.3, c === 0 ? 0 : Math.min(0.12, c / 1.5), h),
    destructive: 'oklch(0.577 0.245 27.325)',
    border: ok(0.915, tint, h),
    input: ok(0.915, tint, h),
    ring: c === 0 ? ok(0.708, 0, h) : ok(0.65, c * 0.8, h),
  };
  const dark: Record<string, string> = {
    background: ok(0.15, tint, h),
    foreground: ok(0.97, tint / 4, h),
    card: ok(0.2, tint, h),
    'card-foreground': ok(0.97, tint / 4, h),
    primary: c === 0 ? ok(0.922, 0, h) : ok(0.7, c * 0.9, h),
    'primary-foreground': ok(0.17, tint * 1.5, h),
    secondary: ok(0.27, tint, h),
    'secondary-foreground': ok(0.97, tint / 4, h),
    muted: ok(0.26, tint, h),
    'muted-foreground': ok(0.71, tint * 1.5, h),
    accent: ok(0.3, c === 0 ? 0 : Math.min(0.05, c / 3), h),
    'accent-foreground': ok(0.96, tint / 2, h),
    destructive: 'oklch(0.704 0.191 22.216)',
    border: 'oklch(1 0 0 / 10%)',
    input: 'oklch(1 0 0 / 15%)',
    ring: c === 0 ? ok(0.556, 0, h) : ok(0.6, c * 0.8, h),
  };
  return { name: input.name, light, dark, fonts: [googleFontUrl(input.font)], radius: input.radius ?? '0.625rem' };
}

export const THEME_PRESETS: readonly Theme[] = [
  paletteFromHue({ name: 'Neutral', hue: 0, chroma: 0, font: 'Inter' }),
  paletteFromHue({ name: 'Ocean', hue: 245, chroma: 0.17, font: 'Inter', radius: '0.75rem' }),
  paletteFromHue({ name: 'Forest', hue: 152, chroma: 0.14, font: 'Manrope' }),
  paletteFromHue({ name: 'Sunset', hue: 45, chroma: 0.19, font: 'Poppins', radius: '1rem' }),
  paletteFromHue({ name: 'Grape', hue: 300, chroma: 0.2, font: 'Outfit' }),
  paletteFromHue({ name: 'Rose', hue: 12, chroma: 0.2, font: 'DM Sans', radius: '0.875rem' }),
  paletteFromHue({ name: 'Amber', hue: 70, chroma: 0.16, font: 'Space Grotesk', radius: '0.375rem' }),
  paletteFromHue({ name: 'Teal', hue: 190, chroma: 0.12, font: 'Nunito', radius: '1rem' }),
];

const COLOUR_WORDS: Readonly<Record<string, number>> = {
  red: 25, orange: 50, amber: 70, yellow: 90, gold: 80, lime: 125, green: 145, emerald: 160, mint: 165,
  teal: 185, cyan: 205, sky: 230, blue: 255, navy: 260, indigo: 275, violet: 290, purple: 305, lavender: 295,
  fuchsia: 320, magenta: 330, pink: 350, rose: 10, coral: 35, brown: 55, ocean: 235, sea: 215, forest: 150,
  sunset: 40, fire: 30, earth: 60, sand: 80, night: 270, berry: 340, wine: 15, grape: 305,
};
const MUTED_WORDS = /\b(calm|muted|soft|pastel|gentle|quiet|minimal|subtle|earthy|serene)\b/;
const BOLD_WORDS = /\b(bold|vibrant|neon|bright|loud|electric|energetic|playful|vivid)\b/;
const GREY_WORDS = /\b(grey|gray|mono|monochrome|black|white|neutral|slate)\b/;
const FONTS = ['Inter', 'Manrope', 'Poppins', 'Outfit', 'DM Sans', 'Space Grotesk', 'Nunito', 'Plus Jakarta Sans'] as const;

/** FNV-1a: a stable 32-bit hash of the seed text. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Hue of `#rgb` / `#rrggbb` in OKLCH degrees (approximated from HSL) and its saturation. */
function hexHue(hex: string): { hue: number; saturation: number } | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (m === null) return null;
  const digits = m[1] ?? '';
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  if (d === 0) return { hue: 0, saturation: 0 };
  let hue = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  hue *= 60;
  // HSL red sits near 29° in OKLCH: a small shift keeps the named colour recognisable.
  return { hue: (hue + 29 + 360) % 360, saturation: d / (1 - Math.abs(max + min - 1) || 1) };
}

const titleCase = (text: string): string =>
  text
    .split(/\s+/)
    .filter((w) => w !== '')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');

/** A theme from a colour word, a hex colour or any text (hashed): the same seed gives the same theme. */
export function generateTheme(seed: string): Theme {
  const text = seed.trim().toLowerCase().replace(/\s+/g, ' ').slice(0, 120);
  const h = hash(text);
  const font = FONTS[h % FONTS.length] ?? 'Inter';
  const radius = ['0.375rem', '0.625rem', '0.75rem', '1rem'][(h >>> 8) % 4] ?? '0.625rem';
  const name = text === '' ? 'Custom' : titleCase(seed.trim().replace(/\s+/g, ' ').slice(0, 40));
  let chroma = 0.17;
  if (MUTED_WORDS.test(text)) chroma = 0.09;
  if (BOLD_WORDS.test(text)) chroma = 0.23;
  const hex = /#(?:[0-9a-f]{6}|[0-9a-f]{3})\b/i.exec(text);
  const fromHex = hex === null ? null : hexHue(hex[0]);
  if (fromHex !== null) {
    return paletteFromHue({ name, hue: fromHex.hue, chroma: fromHex.saturation < 0.08 ? 0 : chroma, font, radius });
  }
  const word = text.split(/[^a-z]+/).find((w) => w in COLOUR_WORDS);
  if (word === undefined && GREY_WORDS.test(text)) return paletteFromHue({ name, hue: 0, chroma: 0, font, radius });
  const hue = word === undefined ? h % 360 : (COLOUR_WORDS[word] ?? 0);
  return paletteFromHue({ name, hue, chroma, font, radius });
}

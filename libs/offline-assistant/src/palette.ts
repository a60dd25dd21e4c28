// Colours and themes of generated apps: every colour is a CSS variable in the first `:root`
// block of src/index.css, so a theme change is one small edit.

export const COLOUR_NAMES: Readonly<Record<string, string>> = Object.freeze({
  red: '#dc2626',
  crimson: '#be123c',
  orange: '#c2410c',
  amber: '#b45309',
  gold: '#ca8a04',
  yellow: '#eab308',
  lime: '#4d7c0f',
  green: '#15803d',
  emerald: '#047857',
  mint: '#10b981',
  teal: '#0f766e',
  cyan: '#0e7490',
  sky: '#0369a1',
  blue: '#2563eb',
  navy: '#1e3a8a',
  indigo: '#4f46e5',
  violet: '#7c3aed',
  purple: '#9333ea',
  lavender: '#8b5cf6',
  fuchsia: '#a21caf',
  magenta: '#a21caf',
  pink: '#be185d',
  rose: '#e11d48',
  coral: '#f97316',
  brown: '#92400e',
  chocolate: '#7c2d12',
  coffee: '#7c4a2d',
  slate: '#475569',
  gray: '#4b5563',
  grey: '#4b5563',
  black: '#111827',
  white: '#ffffff',
});

export const DEFAULT_PRIMARY = COLOUR_NAMES['indigo'] as string;

export type FontChoice = 'sans' | 'serif' | 'mono' | 'rounded';

/**
 * System font stacks only: a generated app loads no web font (none would load offline, and a
 * named font that happens to be installed would differ from the theme on other machines).
 */
export const FONT_STACKS: Readonly<Record<FontChoice, string>> = Object.freeze({
  sans: "ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  serif: "ui-serif, Georgia, Cambria, 'Times New Roman', Times, serif",
  mono: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace",
  rounded: "ui-rounded, 'SF Pro Rounded', system-ui, -apple-system, 'Segoe UI', sans-serif",
});

/** Which choice a `--font` value is (also the stacks of earlier versions, which named web fonts). */
function fontChoiceOf(value: string): FontChoice {
  const exact = (Object.keys(FONT_STACKS) as FontChoice[]).find((f) => FONT_STACKS[f] === value);
  if (exact) return exact;
  if (/mono/i.test(value)) return 'mono';
  if (/rounded|nunito/i.test(value)) return 'rounded';
  if (/serif/i.test(value.replace(/sans-serif/gi, ''))) return 'serif';
  return 'sans';
}

export interface Theme {
  readonly primary: string;
  readonly dark: boolean;
  readonly font: FontChoice;
  /** Corner radius in px. */
  readonly radius: number;
  /** A background colour asked for explicitly; the palette's otherwise. */
  readonly background?: string;
}

export const DEFAULT_THEME: Theme = Object.freeze({ primary: DEFAULT_PRIMARY, dark: false, font: 'sans', radius: 14 });

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

export function normaliseHex(value: string): string | null {
  if (!HEX.test(value)) return null;
  const hex = value.toLowerCase();
  return hex.length === 4 ? `#${hex[1]}${hex[1]}${hex[2]}${hex[2]}${hex[3]}${hex[3]}` : hex;
}

function channels(hex: string): [number, number, number] {
  const h = normaliseHex(hex) ?? '#000000';
  return [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)];
}

/** WCAG relative luminance, 0 (black) … 1 (white). */
export function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** White or near-black, whichever reads better on `hex`. */
export function contrastText(hex: string): string {
  const l = luminance(hex);
  const onWhite = 1.05 / (l + 0.05);
  const onBlack = (l + 0.05) / 0.05;
  return onWhite >= onBlack ? '#ffffff' : '#0f172a';
}

/**
 * The `:root` block of a theme: the only place generated apps keep colours. The names are the
 * shadcn tokens the starter template uses (background, foreground, card, primary, muted, …), so
 * the template's own components and Tailwind's classes follow the same theme.
 */
export function themeBlock(theme: Theme): string {
  const bg = theme.background ?? (theme.dark ? '#0b1120' : '#f8fafc');
  // A custom background decides light or dark text by itself.
  const dark = theme.background !== undefined ? luminance(theme.background) < 0.25 : theme.dark;
  const card = dark ? '#111827' : '#ffffff';
  const foreground = dark ? '#e5e7eb' : '#0f172a';
  const muted = dark ? '#1f2937' : '#f1f5f9';
  const border = dark ? '#1f2937' : '#e2e8f0';
  const vars: [string, string][] = [
    ['--background', bg],
    ['--foreground', foreground],
    ['--card', card],
    ['--card-foreground', foreground],
    ['--primary', theme.primary],
    ['--primary-foreground', contrastText(theme.primary)],
    ['--secondary', muted],
    ['--secondary-foreground', foreground],
    ['--muted', muted],
    ['--muted-foreground', dark ? '#9ca3af' : '#64748b'],
    ['--accent', muted],
    ['--accent-foreground', foreground],
    ['--destructive', '#dc2626'],
    ['--success', '#16a34a'],
    ['--border', border],
    ['--input', border],
    ['--ring', theme.primary],
    ['--radius', `${theme.radius}px`],
    ['--font', FONT_STACKS[theme.font]],
    ['color-scheme', dark ? 'dark' : 'light'],
  ];
  return [':root {', ...vars.map(([k, v]) => `  ${k}: ${v};`), '}'].join('\n');
}

/** The first `:root { … }` block of a stylesheet, as written. */
export function findRootBlock(css: string): string | null {
  const match = /:root\s*\{[^}]*\}/.exec(css);
  return match ? match[0] : null;
}

/** A `@media (prefers-color-scheme: dark) { :root { … } }` block (the starter's automatic dark theme). */
export const AUTO_DARK_BLOCK = /\n*@media\s*\(prefers-color-scheme:\s*dark\)\s*\{\s*:root\s*\{[^}]*\}\s*\}\n*/;

function readVar(block: string, name: string): string | null {
  const match = new RegExp(`${name.replace(/[-]/g, '\\-')}\\s*:\\s*([^;]+);`).exec(block);
  return match ? (match[1] as string).trim() : null;
}

/** Reads a theme back from a `:root` block (ours or anyone's); unknown parts fall back to defaults. */
export function readTheme(block: string): Theme {
  const primary = normaliseHex(readVar(block, '--primary') ?? '') ?? DEFAULT_PRIMARY;
  const scheme = readVar(block, 'color-scheme');
  const bg = normaliseHex(readVar(block, '--background') ?? '');
  const dark = scheme === 'dark' || (bg !== null && luminance(bg) < 0.25);
  const fontValue = readVar(block, '--font') ?? '';
  const font = fontChoiceOf(fontValue);
  const radiusMatch = /^([\d.]+)(px|rem)$/.exec(readVar(block, '--radius') ?? '');
  const radius = radiusMatch ? Math.round(Number(radiusMatch[1]) * (radiusMatch[2] === 'rem' ? 16 : 1)) : Number.NaN;
  const standardBg = bg === '#0b1120' || bg === '#f8fafc';
  return {
    primary,
    dark,
    font,
    radius: Number.isFinite(radius) ? radius : DEFAULT_THEME.radius,
    ...(bg !== null && !standardBg ? { background: bg } : {}),
  };
}

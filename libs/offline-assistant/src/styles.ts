// The stylesheet of generated apps: theme variables first (one `:root` block), then a small
// design system — layout, header, sections, cards, buttons, forms, tables — that every kind uses.
// In a Tailwind project (the starter template) the file keeps Tailwind and maps the theme onto
// its colour names, so utility classes and the template's components follow the same theme.
import { themeBlock, type Theme } from './palette.js';
import { COMPONENTS_CSS } from './styles-components.js';

/** Marks the design system in a stylesheet, so it is added once. */
export const DESIGN_SYSTEM_MARKER = '/* Kiln design system: layout, sections, cards, buttons and forms. */';

const TAILWIND_THEME = `@theme inline {
  --color-background: var(--background);
  --color-foreground: var(--foreground);
  --color-card: var(--card);
  --color-card-foreground: var(--card-foreground);
  --color-primary: var(--primary);
  --color-primary-foreground: var(--primary-foreground);
  --color-secondary: var(--secondary);
  --color-secondary-foreground: var(--secondary-foreground);
  --color-muted: var(--muted);
  --color-muted-foreground: var(--muted-foreground);
  --color-accent: var(--accent);
  --color-accent-foreground: var(--accent-foreground);
  --color-destructive: var(--destructive);
  --color-border: var(--border);
  --color-input: var(--input);
  --color-ring: var(--ring);
  --radius-sm: calc(var(--radius) - 4px);
  --radius-md: calc(var(--radius) - 2px);
  --radius-lg: var(--radius);
  --radius-xl: calc(var(--radius) + 4px);
  --font-sans: var(--font);
}

@layer base {
  * {
    @apply border-border;
  }
}`;

/**
 * The body's font is Tailwind's font-sans, so a font the theme builder sets (in @theme) is the
 * one the app shows.
 */
const TAILWIND_BODY_FONT = `@layer base {
  body {
    @apply font-sans;
  }
}
`;

const TAILWIND_IMPORT = /@import\s+['"]tailwindcss['"]/;

/** Whether a project styles with Tailwind (its stylesheet imports it, or package.json lists it). */
export function usesTailwind(files: { get(path: string): string | undefined }): boolean {
  const css = files.get('src/index.css');
  if (css !== undefined && TAILWIND_IMPORT.test(css)) return true;
  const manifest = files.get('package.json');
  return manifest !== undefined && /"tailwindcss"\s*:/.test(manifest) && css === undefined;
}

export function indexCss(theme: Theme, tailwind = false): string {
  const parts = tailwind ? ["@import 'tailwindcss';", themeBlock(theme), TAILWIND_THEME, designSystemCss(), TAILWIND_BODY_FONT] : [themeBlock(theme), designSystemCss()];
  return parts.join('\n\n');
}

const BASE_CSS = `  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }

  html {
    scroll-behavior: smooth;
  }

  body {
    margin: 0;
    font-family: var(--font, ui-sans-serif, system-ui, sans-serif);
    font-size: 16px;
    line-height: 1.6;
    color: var(--foreground);
    background: var(--background);
    -webkit-font-smoothing: antialiased;
  }

  img {
    max-width: 100%;
    display: block;
  }

  a {
    color: var(--primary);
  }

  h1,
  h2,
  h3,
  h4 {
    line-height: 1.2;
    margin: 0 0 0.5em;
    font-weight: 700;
    letter-spacing: -0.02em;
  }

  h1 {
    font-size: clamp(2rem, 5vw, 3.25rem);
  }

  h2 {
    font-size: clamp(1.5rem, 3.5vw, 2.25rem);
  }

  h3 {
    font-size: 1.15rem;
    font-weight: 650;
  }

  p {
    margin: 0 0 1em;
  }

  button,
  input,
  select,
  textarea {
    font: inherit;
    color: inherit;
  }

  :focus-visible {
    outline: 3px solid color-mix(in srgb, var(--primary) 45%, transparent);
    outline-offset: 2px;
  }
`;

/**
 * The shared classes, using the theme's variables (with fallbacks for the two a shadcn theme
 * lacks). Element defaults sit in the `base` layer and classes in `components`, so Tailwind's
 * utilities and each component's own stylesheet (unlayered) win over them.
 */
export function designSystemCss(): string {
  return `${DESIGN_SYSTEM_MARKER}
@layer base, components;

@layer base {
${BASE_CSS}}

@layer components {
${COMPONENTS_CSS}}
`;
}

import { describe, expect, it } from '@jest/globals';
import {
  bracesBalanced,
  fontNameFromUrl,
  generateTheme,
  mergeTheme,
  parseTheme,
  THEME_PRESETS,
  THEME_VARIABLE_NAMES,
  type Theme,
  UNKNOWN_FONT,
} from './theme.js';

// A copy of the starter's src/index.css (libs/adapters/src/sandbox/starter): domain tests read no files.
const STARTER = `@import 'tailwindcss';

/* Light and dark themes from CSS variables (the shadcn way); Tailwind classes use them as
   bg-background, text-foreground, bg-primary, border-border, … */
:root {
  --background: oklch(1 0 0);
  --foreground: oklch(0.145 0 0);
  --card: oklch(1 0 0);
  --card-foreground: oklch(0.145 0 0);
  --primary: oklch(0.205 0 0);
  --primary-foreground: oklch(0.985 0 0);
  --secondary: oklch(0.97 0 0);
  --secondary-foreground: oklch(0.205 0 0);
  --muted: oklch(0.97 0 0);
  --muted-foreground: oklch(0.556 0 0);
  --accent: oklch(0.97 0 0);
  --accent-foreground: oklch(0.205 0 0);
  --destructive: oklch(0.577 0.245 27.325);
  --border: oklch(0.922 0 0);
  --input: oklch(0.922 0 0);
  --ring: oklch(0.708 0 0);
  --radius: 0.625rem;
}

@media (prefers-color-scheme: dark) {
  :root {
    --background: oklch(0.145 0 0);
    --foreground: oklch(0.985 0 0);
    --card: oklch(0.205 0 0);
    --card-foreground: oklch(0.985 0 0);
    --primary: oklch(0.922 0 0);
    --primary-foreground: oklch(0.205 0 0);
    --secondary: oklch(0.269 0 0);
    --secondary-foreground: oklch(0.985 0 0);
    --muted: oklch(0.269 0 0);
    --muted-foreground: oklch(0.708 0 0);
    --accent: oklch(0.269 0 0);
    --accent-foreground: oklch(0.985 0 0);
    --destructive: oklch(0.704 0.191 22.216);
    --border: oklch(1 0 0 / 10%);
    --input: oklch(1 0 0 / 15%);
    --ring: oklch(0.556 0 0);
  }
}

@theme inline {
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
  --font-sans: ui-sans-serif, system-ui, sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji';
}

@layer base {
  * {
    @apply border-border;
  }
  body {
    @apply bg-background text-foreground font-sans antialiased;
  }
}
`;

const THEME: Theme = {
  name: 'Ocean',
  light: { primary: 'oklch(0.55 0.17 245)', background: 'oklch(0.99 0 0)' },
  dark: { primary: 'oklch(0.7 0.15 245)', background: 'oklch(0.15 0.01 245)' },
  fonts: ['https://fonts.googleapis.com/css2?family=Open+Sans:wght@400;700&display=swap'],
  radius: '0.75rem',
};

describe('fontNameFromUrl', () => {
  it('reads the family parameter', () => {
    expect(fontNameFromUrl('https://fonts.googleapis.com/css2?family=Inter:wght@400;700&display=swap')).toBe('Inter');
    expect(fontNameFromUrl('https://fonts.googleapis.com/css2?family=Open+Sans')).toBe('Open Sans');
    expect(fontNameFromUrl('https://fonts.googleapis.com/css?display=swap&family=Space%20Grotesk:wght@500')).toBe('Space Grotesk');
  });
  it("defaults to 'Unknown Font'", () => {
    expect(fontNameFromUrl('https://example.com/fonts.css')).toBe(UNKNOWN_FONT);
    expect(fontNameFromUrl('https://fonts.googleapis.com/css2?family=')).toBe('Unknown Font');
  });
});

describe('mergeTheme', () => {
  it('merges into the starter stylesheet: :root, the automatic dark block, @theme font, imports first', () => {
    const { stylesheet, keptOriginal } = mergeTheme(STARTER, THEME);
    expect(keptOriginal).toBe(false);
    expect(bracesBalanced(stylesheet)).toBe(true);
    expect(stylesheet.startsWith("@import url('https://fonts.googleapis.com/css2?family=Open+Sans:wght@400;700&display=swap');\n@import 'tailwindcss';")).toBe(true);
    const [light, rest] = stylesheet.split('@media (prefers-color-scheme: dark)') as [string, string];
    expect(light).toContain('--primary: oklch(0.55 0.17 245);');
    expect(light).toContain('--radius: 0.75rem;');
    expect(light).not.toContain('--primary: oklch(0.205 0 0)');
    expect(rest).toContain('--primary: oklch(0.7 0.15 245);');
    expect(rest).toContain('--background: oklch(0.15 0.01 245);');
    expect(stylesheet).toContain("--font-sans: 'Open Sans', ui-sans-serif, system-ui, sans-serif;");
    // untouched variables and the base layer of other rules stay
    expect(stylesheet).toContain('--primary-foreground: oklch(0.985 0 0);');
    expect(stylesheet).toContain('@layer base {\n  * {');
    expect(stylesheet).not.toContain('.dark {');
  });

  it('strips an @layer base wrapper around the theme blocks', () => {
    const css = `@import "tailwindcss";\n\n@layer base {\n  :root {\n    --primary: red;\n  }\n  .dark {\n    --primary: blue;\n  }\n}\n\nbody { color: black; }\n`;
    const { stylesheet } = mergeTheme(css, THEME);
    expect(stylesheet).not.toContain('@layer base');
    expect(stylesheet).toContain(':root {\n  --primary: oklch(0.55 0.17 245);\n  --background: oklch(0.99 0 0);');
    expect(stylesheet).toContain('.dark {\n  --primary: oklch(0.7 0.15 245);');
    expect(stylesheet).toContain('body { color: black; }');
  });

  it('creates the theme section when there is none (merged as an empty one), after the imports', () => {
    const css = `@import 'tailwindcss';\n\nbody {\n  margin: 0;\n}\n`;
    const { stylesheet, keptOriginal } = mergeTheme(css, { ...THEME, fonts: [] });
    expect(keptOriginal).toBe(false);
    expect(stylesheet).toBe(
      `@import 'tailwindcss';\n\n:root {\n  --primary: oklch(0.55 0.17 245);\n  --background: oklch(0.99 0 0);\n  --radius: 0.75rem;\n}\n\n.dark {\n  --primary: oklch(0.7 0.15 245);\n  --background: oklch(0.15 0.01 245);\n}\n\nbody {\n  margin: 0;\n}\n`,
    );
  });

  it('keeps the original stylesheet when its braces are unbalanced', () => {
    const css = `:root {\n  --primary: red;\n\n.dark { --primary: blue; }\n`;
    expect(mergeTheme(css, THEME)).toEqual({ stylesheet: css, keptOriginal: true });
    expect(mergeTheme('a { b: c; } }', THEME).keptOriginal).toBe(true);
  });

  it('ignores braces inside comments and strings', () => {
    const css = `/* { */\n:root { --primary: red; }\n.a::before { content: '}'; }\n`;
    const { stylesheet, keptOriginal } = mergeTheme(css, THEME);
    expect(keptOriginal).toBe(false);
    expect(stylesheet).toContain("content: '}'");
    expect(stylesheet).toContain('--primary: oklch(0.55 0.17 245);');
  });

  it('replaces earlier font imports instead of piling them up, and is idempotent', () => {
    const once = mergeTheme(STARTER, THEME).stylesheet;
    const inter = { ...THEME, fonts: ['https://fonts.googleapis.com/css2?family=Inter:wght@400;700'] };
    const twice = mergeTheme(once, inter).stylesheet;
    expect(twice).not.toContain('Open+Sans');
    expect(twice.match(/@import url/g)).toHaveLength(1);
    expect(twice).toContain("--font-sans: 'Inter',");
    expect(mergeTheme(twice, inter).stylesheet).toBe(twice);
  });

  it('does not mistake --primary-foreground or --color-primary for --primary', () => {
    const { stylesheet } = mergeTheme(':root {\n  --primary-foreground: white;\n  --color-primary: var(--primary);\n}\n', {
      name: 'x',
      light: { primary: 'green' },
      dark: {},
      fonts: [],
    });
    expect(stylesheet).toBe(':root {\n  --primary-foreground: white;\n  --color-primary: var(--primary);\n  --primary: green;\n}\n');
  });
});

describe('presets and generated themes', () => {
  it('offers 6–8 presets with every variable in both modes', () => {
    expect(THEME_PRESETS.length).toBeGreaterThanOrEqual(6);
    expect(THEME_PRESETS.length).toBeLessThanOrEqual(8);
    expect(new Set(THEME_PRESETS.map((t) => t.name)).size).toBe(THEME_PRESETS.length);
    for (const preset of THEME_PRESETS) {
      expect(Object.keys(preset.light).sort()).toEqual([...THEME_VARIABLE_NAMES].sort());
      expect(Object.keys(preset.dark).sort()).toEqual([...THEME_VARIABLE_NAMES].sort());
      expect(parseTheme(preset)).toEqual(preset);
    }
  });

  it('generates the same theme from the same seed, by colour word, hex or hash', () => {
    expect(generateTheme('calm ocean')).toEqual(generateTheme('calm ocean'));
    expect(generateTheme('calm ocean').name).toBe('Calm Ocean');
    expect(generateTheme('blue').light.primary).toContain(' 255)');
    expect(generateTheme('#ff0000').light.primary).toMatch(/oklch\(0\.55 0\.17 29\)/);
    expect(generateTheme('a bad day').name).toBe('A Bad Day');
    expect(generateTheme('monochrome').light.primary).toBe('oklch(0.205 0 0)');
    expect(generateTheme('').name).toBe('Custom');
    expect(generateTheme('something cosy')).not.toEqual(generateTheme('something wild'));
  });
});

describe('parseTheme', () => {
  it('accepts a valid theme and rejects unsafe values', () => {
    expect(parseTheme(THEME)).toEqual(THEME);
    expect(parseTheme({ ...THEME, light: { primary: 'red; } body { x: y' } })).toBeNull();
    expect(parseTheme({ ...THEME, fonts: ["https://x.com/a.css') ; @import url('evil"] })).toBeNull();
    expect(parseTheme({ ...THEME, name: '' })).toBeNull();
    expect(parseTheme('Ocean')).toBeNull();
    expect(parseTheme({ ...THEME, fonts: undefined })).toEqual({ ...THEME, fonts: [] });
  });
});

import { describe, expect, it } from '@jest/globals';
import { generateTheme, mergeTheme, THEME_PRESETS } from './theme.js';
import { CURRENT_THEME_NAME, matchingTheme, readTheme } from './theme-reading.js';

// The shape of the starter's src/index.css: light :root, dark :root in a media query, @theme.
const STARTER = `@import 'tailwindcss';

/* Light and dark themes { from CSS variables } */
:root {
  --background: oklch(1 0 0);
  --foreground: oklch(0.145 0 0);
  --primary: oklch(0.205 0 0);
  --radius: 0.625rem;
}

@media (prefers-color-scheme: dark) {
  :root {
    --background: oklch(0.145 0 0);
    --foreground:   oklch(0.985 0 0);
    --primary: oklch(0.922 0 0);
  }
}

@theme inline {
  --color-background: var(--background);
  --font-sans: ui-sans-serif, system-ui, sans-serif;
}

@layer base {
  body {
    @apply bg-background text-foreground;
  }
}
`;

describe('readTheme: the theme a stylesheet sets now', () => {
  it('reads :root as light, a dark media query or .dark as dark, and --radius; @theme is not the theme', () => {
    expect(readTheme(STARTER)).toEqual({
      name: CURRENT_THEME_NAME,
      light: { background: 'oklch(1 0 0)', foreground: 'oklch(0.145 0 0)', primary: 'oklch(0.205 0 0)' },
      dark: { background: 'oklch(0.145 0 0)', foreground: 'oklch(0.985 0 0)', primary: 'oklch(0.922 0 0)' },
      fonts: [],
      radius: '0.625rem',
    });
    expect(readTheme(':root { --primary: red; }\n.dark { --primary: blue; }', 'Mine')).toEqual({
      name: 'Mine',
      light: { primary: 'red' },
      dark: { primary: 'blue' },
      fonts: [],
    });
  });

  it('reads font stylesheet imports, not Tailwind', () => {
    const css = `@import url('https://fonts.googleapis.com/css2?family=Inter:wght@400;700&display=swap');\n@import 'tailwindcss';\n:root { --primary: red; --font-sans: 'Inter', sans-serif; }`;
    expect(readTheme(css)?.fonts).toEqual(['https://fonts.googleapis.com/css2?family=Inter:wght@400;700&display=swap']);
    expect(readTheme(css)?.light).toEqual({ primary: 'red' });
  });

  it('ignores commented-out variables and is null for a stylesheet without a theme', () => {
    expect(readTheme(':root { /* --primary: red; */ --accent: blue; }')?.light).toEqual({ accent: 'blue' });
    expect(readTheme("@import 'tailwindcss';\nbody { color: red; }")).toBeNull();
    expect(readTheme('')).toBeNull();
  });

  it('finds every preset again after it was merged into the starter', () => {
    for (const preset of THEME_PRESETS) {
      const merged = mergeTheme(STARTER, preset).stylesheet;
      const current = readTheme(merged);
      expect(current).not.toBeNull();
      expect(matchingTheme(current!, THEME_PRESETS)?.name).toBe(preset.name);
    }
  });

  it('a theme no preset matches stays the current theme', () => {
    const current = readTheme(mergeTheme(STARTER, generateTheme('calm green garden')).stylesheet)!;
    expect(matchingTheme(current, THEME_PRESETS.filter((p) => p.name !== generateTheme('calm green garden').name))).toBeNull();
    expect(matchingTheme(readTheme(STARTER)!, THEME_PRESETS)).toBeNull();
  });
});

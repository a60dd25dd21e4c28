// Features added to an existing app by request: a real dark mode toggle in the header, and
// favourites (a heart on each recipe, kept in the browser). Each keeps what the app has —
// its colours (`:root` / `.dark`, which the theme builder writes), name, pages and copy.
import { kebabCase, str } from './code.js';
import type { EditOutcome, WorkingFiles } from './edits.js';
import { addImport, currentAppName } from './edits.js';
import { favouritesTs, RECIPES_COMPONENT, RECIPES_CSS, RECIPES_DATA } from './kinds/recipes.js';
import { findRootBlock, readTheme, themeBlock } from './palette.js';

const DARK_BLOCK = /(^|\n)[ \t]*(?:html)?\.dark\s*\{/;
const MEDIA_DARK_ROOT = /@media\s*\(\s*prefers-color-scheme\s*:\s*dark\s*\)\s*\{\s*:root\s*\{([^}]*)\}\s*\}/;
const TAILWIND_IMPORT = /^@import\s+['"]tailwindcss['"];?[ \t]*\n/m;
const CLASS_VARIANT = '@custom-variant dark (&:where(.dark, .dark *));';

/**
 * The stylesheet with a `.dark` block the toggle can switch to. An existing `.dark` block is kept
 * as it is; the starter's automatic dark theme (`@media (prefers-color-scheme: dark) { :root }`)
 * becomes `.dark` with the same colours (the toggle follows the system's choice at first); an app
 * with only its `:root` colours gets a dark palette in the same primary colour. `:root` is never
 * changed. Returns whether the app's base look is dark.
 */
function darkClassCss(css: string): { css: string; baseDark: boolean } {
  const root = findRootBlock(css);
  const baseDark = root !== null && /color-scheme:\s*dark/.test(root);
  let next = css;
  if (!DARK_BLOCK.test(next)) {
    const media = MEDIA_DARK_ROOT.exec(next);
    if (media) {
      next = next.replace(MEDIA_DARK_ROOT, () => `.dark {${(media[1] as string).replace(/\s+$/, '')}\n  color-scheme: dark;\n}`);
    } else {
      const theme = readTheme(root ?? '');
      const dark = themeBlock({ primary: theme.primary, font: theme.font, radius: theme.radius, dark: true }).replace(/^:root \{/, '.dark {');
      const at = root === null ? -1 : next.indexOf(root) + root.length;
      next = at === -1 ? `${dark}\n\n${next}` : `${next.slice(0, at)}\n\n${dark}${next.slice(at)}`;
    }
  }
  const tailwind = TAILWIND_IMPORT.exec(next);
  if (tailwind && !next.includes('@custom-variant dark')) {
    const end = tailwind.index + tailwind[0].length;
    next = `${next.slice(0, end)}\n${CLASS_VARIANT}\n${next.slice(end)}`;
  }
  return { css: next, baseDark };
}

function themeToggleTsx(storageKey: string, baseDark: boolean): string {
  return `import { useEffect, useState } from 'react';

type Mode = 'light' | 'dark';

const STORAGE_KEY = ${str(storageKey)};

/** The saved choice, else the system's preference${baseDark ? ' (dark when it has none)' : ''}. */
function initialMode(): Mode {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved === 'light' || saved === 'dark') return saved;
  } catch {
    // Storage can be blocked; fall back to the system's preference.
  }
  ${
    baseDark
      ? "return window.matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';"
      : "return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';"
  }
}

/** Switches the .dark class on <html> and remembers the choice in this browser. */
export function ThemeToggle() {
  const [mode, setMode] = useState<Mode>(initialMode);

  useEffect(() => {
    document.documentElement.classList.toggle('dark', mode === 'dark');
  }, [mode]);

  function toggle() {
    const next: Mode = mode === 'dark' ? 'light' : 'dark';
    setMode(next);
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Storage can be blocked; the choice lasts for this visit.
    }
  }

  return (
    <button type="button" className="btn btn-ghost btn-small theme-toggle" aria-pressed={mode === 'dark'} aria-label={mode === 'dark' ? 'Switch to light mode' : 'Switch to dark mode'} title={mode === 'dark' ? 'Light mode' : 'Dark mode'} onClick={toggle}>
      {mode === 'dark' ? '☀' : '☾'}
    </button>
  );
}
`;
}

/** Sets the mode before the app renders, so a dark choice does not flash light on load. */
function earlyModeScript(storageKey: string, baseDark: boolean): string {
  const fallback = baseDark ? "!matchMedia('(prefers-color-scheme: light)').matches" : "matchMedia('(prefers-color-scheme: dark)').matches";
  return `    <script>
      try {
        var mode = localStorage.getItem(${str(storageKey)});
        if (mode === 'dark' || (mode !== 'light' && ${fallback})) document.documentElement.classList.add('dark');
      } catch (e) {}
    </script>`;
}

export function addDarkModeToggle(files: WorkingFiles): EditOutcome {
  const header = files.get('src/components/Header.tsx');
  if (header === undefined || !header.includes('</nav>')) {
    return { done: false, unsupported: true, summary: 'This app has no header with a navigation bar (src/components/Header.tsx) that I could put a dark mode toggle in.' };
  }
  if (header.includes('<ThemeToggle')) return { done: false, summary: 'The header already has a dark mode toggle.' };
  const css = files.get('src/index.css') ?? '';
  const { css: nextCss, baseDark } = darkClassCss(css);
  const storageKey = `theme:${kebabCase(currentAppName(files) ?? 'app') || 'app'}`;
  const touched: string[] = [];
  if (nextCss !== css) {
    files.set('src/index.css', nextCss);
    touched.push('src/index.css (a .dark palette; :root kept)');
  }
  files.set('src/components/ThemeToggle.tsx', themeToggleTsx(storageKey, baseDark));
  const withToggle = header.replace(/(\n([ \t]*)<\/nav>)/, (_m, all: string, indent: string) => `${all}\n${indent}<ThemeToggle />`);
  files.set('src/components/Header.tsx', addImport(withToggle, "import { ThemeToggle } from './ThemeToggle';"));
  touched.push('src/components/ThemeToggle.tsx', 'src/components/Header.tsx');
  const html = files.get('index.html');
  if (html !== undefined && html.includes('</head>') && !html.includes(storageKey)) {
    files.set('index.html', html.replace('</head>', () => `${earlyModeScript(storageKey, baseDark)}\n  </head>`));
    touched.push('index.html');
  }
  return {
    done: true,
    summary: `Added a dark mode toggle to the header: it switches the .dark class on <html>, remembers the choice in this browser and follows the system setting at first (${touched.join(', ')}).`,
  };
}

const FAVOURITES_IMPORT = /from ['"]\.\.\/favourites['"]/;

/** Favourites on a recipe app: a heart on each recipe and a Favourites filter, kept in localStorage. */
export function addFavourites(files: WorkingFiles): EditOutcome {
  const component = files.get('src/components/Recipes.tsx');
  if (component === undefined || !files.has('src/recipes.ts')) {
    return { done: false, unsupported: true, summary: 'Offline I can add favourites only to a recipe app I built (src/components/Recipes.tsx).' };
  }
  if (FAVOURITES_IMPORT.test(component)) return { done: false, summary: 'Your recipes already have a heart button that saves favourites.' };
  const touched: string[] = [];
  if (!files.has('src/favourites.ts')) {
    files.set('src/favourites.ts', favouritesTs(currentAppName(files) ?? 'app'));
    touched.push('src/favourites.ts');
  }
  // The new list needs the pantry helpers of the current data file: added when missing.
  const data = files.get('src/recipes.ts') as string;
  if (!data.includes('export function suggestRecipes')) {
    const helpers = /\/\*\* 'eggs, flour'[\s\S]*?(?=\/\*\* An ingredient amount)/.exec(RECIPES_DATA)?.[0] ?? '';
    files.set('src/recipes.ts', `${data.trimEnd()}\n\n${helpers.trimEnd()}\n`);
    touched.push('src/recipes.ts');
  }
  files.set('src/components/Recipes.tsx', RECIPES_COMPONENT);
  const css = files.get('src/components/Recipes.css');
  if (css !== undefined && !css.includes('.heart')) {
    const heart = /\.recipe-title \{[\s\S]*?(?=\.recipe-toolbar \{)/.exec(RECIPES_CSS)?.[0] ?? '';
    files.set('src/components/Recipes.css', `${heart}${css}`);
    touched.push('src/components/Recipes.css');
  }
  touched.push('src/components/Recipes.tsx');
  return { done: true, summary: `Added favourites: a heart button on each recipe saves it, a “♥ Favourites” filter shows the saved ones, and they are kept in this browser across reloads (${touched.join(', ')}).` };
}

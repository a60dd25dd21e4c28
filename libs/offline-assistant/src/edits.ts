// Applying edit intents to the CURRENT files of a project: each intent changes a working copy of
// the files (path → text, undefined for a deleted file) and says what it did in one sentence.
import { topicFor, type Topic } from './copy.js';
import { htmlText, jsxText, str, withArticle } from './code.js';
import type { EditIntent } from './edit-intent.js';
import { SECTION_COMPONENTS, SECTION_IDS, SECTION_LABELS, type SectionId } from './intent.js';
import { MAIN_TSX, mainTsx } from './layout.js';
import { mergeTheme } from '@kiln/domain';
import { AUTO_DARK_BLOCK, contrastText, DEFAULT_THEME, findRootBlock, FONT_STACKS, readTheme, themeBlock, type Theme } from './palette.js';
import { pageFor } from './pages.js';
import { ROUTER_TSX, ROUTES_CSS, routeImport, routeLine, routesTsx, type RouteEntry } from './router.js';
import { sectionComponent } from './sections.js';
import { DESIGN_SYSTEM_MARKER, designSystemCss, indexCss, usesTailwind } from './styles.js';

/** A `.dark { … }` block: the class a dark mode toggle switches. */
const DARK_CLASS_BLOCK = /(^|\n)[ \t]*(?:html)?\.dark\s*\{/;

export class WorkingFiles {
  private readonly changed = new Map<string, string | undefined>();

  constructor(private readonly original: ReadonlyMap<string, string>) {}

  get(path: string): string | undefined {
    return this.changed.has(path) ? this.changed.get(path) : this.original.get(path);
  }

  has(path: string): boolean {
    return this.get(path) !== undefined;
  }

  set(path: string, content: string): void {
    this.changed.set(path, content);
  }

  delete(path: string): void {
    this.changed.set(path, undefined);
  }

  /** Every existing path, sorted. */
  paths(): string[] {
    const all = new Set([...this.original.keys(), ...this.changed.keys()]);
    return [...all].filter((p) => this.get(p) !== undefined).sort();
  }

  /** The target state of every path touched (undefined: delete). */
  targets(): Map<string, string | undefined> {
    return new Map(this.changed);
  }
}

export interface EditContext {
  /** The first thing the person asked for in this project (from the chat), for topic words. */
  readonly originalRequest: string;
}

export interface EditOutcome {
  readonly done: boolean;
  readonly summary: string;
  /** This app cannot take the change at all (not just: it is already there); planning declines. */
  readonly unsupported?: boolean;
}

const SOURCE = /^src\/.*\.(tsx|ts|jsx|js)$/;

/** Display text a person typed, made safe for any string or JSX context it may land in. */
export function safeText(value: string): string {
  return value
    .replace(/[\\`]/g, '')
    .replace(/[{}<>]/g, '')
    .replace(/'/g, '’')
    .replace(/"([^"]*)"/g, '“$1”')
    .replace(/"/g, '”')
    .replace(/\$\{/g, '$ {')
    .trim();
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function sourceFiles(files: WorkingFiles): string[] {
  const preferred = ['src/components/Hero.tsx', 'src/App.tsx'];
  const rest = files.paths().filter((p) => SOURCE.test(p) && !preferred.includes(p));
  return [...preferred.filter((p) => files.has(p)), ...rest];
}

/** The app's current name: site.ts, then index.html's title. */
export function currentAppName(files: WorkingFiles): string | null {
  const site = files.get('src/site.ts');
  const fromSite = site ? /name:\s*'((?:\\.|[^'\\])*)'/.exec(site)?.[1] : undefined;
  if (fromSite !== undefined) return fromSite.replace(/\\(.)/g, '$1');
  const html = files.get('index.html');
  const title = html ? /<title>([^<]*)<\/title>/.exec(html)?.[1] : undefined;
  return title && title.trim() !== '' ? title.trim() : null;
}

function topicOf(files: WorkingFiles, ctx: EditContext): { name: string; topic: Topic } {
  const name = currentAppName(files) ?? 'My App';
  return { name, topic: topicFor(name, null, `${ctx.originalRequest} ${name}`) };
}

// ---------------------------------------------------------------------------------------------

export function rename(files: WorkingFiles, name: string): EditOutcome {
  const clean = safeText(name);
  if (clean === '') return { done: false, summary: 'The new name was empty, so I left the name as it is.' };
  const touched: string[] = [];
  const html = files.get('index.html');
  if (html && /<title>[^<]*<\/title>/.test(html)) {
    files.set('index.html', html.replace(/<title>[^<]*<\/title>/, () => `<title>${htmlText(clean)}</title>`));
    touched.push('index.html');
  }
  const site = files.get('src/site.ts');
  if (site && /name:\s*'(?:\\.|[^'\\])*'/.test(site)) {
    files.set('src/site.ts', site.replace(/name:\s*'(?:\\.|[^'\\])*'/, () => `name: ${str(clean)}`));
    touched.push('src/site.ts');
  } else if (setHeading(files, clean).done) {
    touched.push('main heading');
  }
  if (touched.length === 0) return { done: false, summary: 'I could not find where the app’s name is written (no <title>, site.ts or <h1>).' };
  return { done: true, summary: `Renamed the app to “${clean}” (${touched.join(', ')}).` };
}

const H1 = /(<h1\b[^>]*>)([\s\S]*?)(<\/h1>)/;

export function setHeading(files: WorkingFiles, text: string): EditOutcome {
  const clean = safeText(text);
  for (const path of sourceFiles(files)) {
    const content = files.get(path) as string;
    const m = H1.exec(content);
    if (!m) continue;
    const inner = m[2] as string;
    const indent = /\n(\s*)\S/.exec(inner)?.[1];
    const replacement = indent !== undefined ? `\n${indent}${jsxText(clean)}\n${indent.slice(2)}` : jsxText(clean);
    files.set(path, content.replace(H1, (_all, open: string, _inner: string, close: string) => `${open}${replacement}${close}`));
    return { done: true, summary: `Changed the main heading to “${clean}” in ${path}.` };
  }
  return { done: false, summary: 'There is no main heading (<h1>) to change.' };
}

export function setSubtitle(files: WorkingFiles, text: string): EditOutcome {
  const clean = safeText(text);
  for (const path of sourceFiles(files)) {
    const content = files.get(path) as string;
    const h1 = H1.exec(content);
    if (!h1) continue;
    const after = content.slice(h1.index + h1[0].length);
    const p = /(<p\b[^>]*>)([\s\S]*?)(<\/p>)/.exec(after);
    if (!p) break;
    if ((p[2] as string).trim() === '{site.tagline}' && files.has('src/site.ts')) {
      const site = files.get('src/site.ts') as string;
      files.set('src/site.ts', site.replace(/tagline:\s*'(?:\\.|[^'\\])*'/, () => `tagline: ${str(clean)}`));
      return { done: true, summary: `Changed the subtitle to “${clean}” (src/site.ts).` };
    }
    const start = h1.index + h1[0].length + p.index;
    const updated = content.slice(0, start) + `${p[1]}${jsxText(clean)}${p[3]}` + content.slice(start + p[0].length);
    files.set(path, updated);
    return { done: true, summary: `Changed the subtitle to “${clean}” in ${path}.` };
  }
  return { done: false, summary: 'I could not find a subtitle under the main heading.' };
}

const BUTTON = /(<(button|a)\b[^>]*>)(\s*)([^<>{}]+?)(\s*)(<\/\2>)/g;

export function changeButton(files: WorkingFiles, from: string | null, to: string): EditOutcome {
  const clean = safeText(to);
  let label = from === null ? null : from.trim();
  if (label === null) {
    // The main button: the first primary button, in the hero first.
    for (const path of sourceFiles(files)) {
      const content = files.get(path) as string;
      const primary = /<(button|a)\b[^>]*className="[^"]*btn-primary[^"]*"[^>]*>\s*([^<>{}]+?)\s*<\/\1>/.exec(content) ?? /<(button)\b[^>]*>\s*([^<>{}]+?)\s*<\/button>/.exec(content);
      if (primary) {
        label = (primary[2] as string).trim();
        break;
      }
    }
    if (label === null) return { done: false, summary: 'There is no button with plain text to change.' };
  }
  const changed: string[] = [];
  for (const path of sourceFiles(files)) {
    const content = files.get(path) as string;
    let count = 0;
    const updated = content.replace(BUTTON, (all, open: string, _tag: string, before: string, text: string, after: string, close: string) => {
      if (text.trim().toLowerCase() !== (label as string).toLowerCase()) return all;
      count += 1;
      return `${open}${before}${jsxText(clean)}${after}${close}`;
    });
    if (count > 0) {
      files.set(path, updated);
      changed.push(path);
    }
  }
  if (changed.length === 0) return { done: false, summary: `I could not find a button that says “${label}”.` };
  return { done: true, summary: `Changed the “${label}” button to “${clean}” (${changed.join(', ')}).` };
}

export function replaceText(files: WorkingFiles, from: string, to: string): EditOutcome {
  const clean = safeText(to);
  const candidates = ['index.html', ...sourceFiles(files), ...files.paths().filter((p) => p.endsWith('.css'))];
  const changed: string[] = [];
  for (const path of [...new Set(candidates)]) {
    const content = files.get(path);
    if (content === undefined) continue;
    const exact = content.includes(from);
    const pattern = new RegExp(escapeRegExp(from), exact ? 'g' : 'gi');
    if (!pattern.test(content)) continue;
    pattern.lastIndex = 0;
    files.set(path, content.replace(pattern, () => (path === 'index.html' ? htmlText(clean) : clean)));
    changed.push(path);
  }
  if (changed.length === 0) return { done: false, summary: `I could not find the text “${from}” anywhere in the project.` };
  return { done: true, summary: `Replaced “${from}” with “${clean}” (${changed.join(', ')}).` };
}

/**
 * The text of the element picked in the preview: changed where it is written as that element's
 * own text (`<h1 …>Pantry</h1>`); when it is not written so (it comes from data, like the app's
 * name in site.ts), every occurrence, as replaceText.
 */
export function replaceElementText(files: WorkingFiles, tag: string, from: string, to: string): EditOutcome {
  const clean = safeText(to);
  const t = escapeRegExp(tag);
  const pattern = new RegExp(`(<${t}(?:\\s[^<>]*)?>\\s*)${escapeRegExp(from)}(\\s*</${t}>)`, 'g');
  const changed: string[] = [];
  for (const path of ['index.html', ...sourceFiles(files)]) {
    const content = files.get(path);
    if (content === undefined || !pattern.test(content)) continue;
    pattern.lastIndex = 0;
    files.set(path, content.replace(pattern, (_m, open: string, close: string) => `${open}${path === 'index.html' ? htmlText(clean) : clean}${close}`));
    changed.push(path);
  }
  if (changed.length === 0) return replaceText(files, from, to);
  return { done: true, summary: `Changed the selected <${tag}> “${from}” to “${clean}” (${changed.join(', ')}).` };
}

/** The shared stylesheet, imported first by main.tsx and holding the design system the generated parts use. */
function ensureStylesheet(files: WorkingFiles, theme: Theme = DEFAULT_THEME): string[] {
  const touched: string[] = [];
  const css = files.get('src/index.css');
  if (css === undefined) {
    files.set('src/index.css', indexCss(theme, usesTailwind(files)));
    touched.push('src/index.css');
  } else if (!css.includes(DESIGN_SYSTEM_MARKER)) {
    files.set('src/index.css', `${css.trimEnd()}\n\n${designSystemCss()}`);
    touched.push('src/index.css');
  }
  const main = files.get('src/main.tsx');
  const next = mainTsx(main);
  if (next !== main) {
    files.set('src/main.tsx', next);
    touched.push('src/main.tsx');
  }
  return touched;
}

export function changeTheme(files: WorkingFiles, intent: Extract<EditIntent, { type: 'theme' }>): EditOutcome {
  const css = files.get('src/index.css');
  const block = css === undefined ? null : findRootBlock(css);
  const current = block ? readTheme(block) : DEFAULT_THEME;
  const next: Theme = {
    primary: intent.primary ?? current.primary,
    dark: intent.dark ?? (intent.background !== undefined ? false : current.dark),
    font: intent.font ?? current.font,
    radius: intent.radius ?? current.radius,
    ...(intent.background !== undefined ? { background: intent.background } : intent.dark !== undefined ? {} : current.background ? { background: current.background } : {}),
  };
  const onlyVariables = intent.dark === undefined && intent.background === undefined;
  if (css !== undefined && block && onlyVariables) {
    // Only the variables asked for change; the rest of :root and .dark (the theme builder's
    // colours) stay as they are.
    const light: Record<string, string> = {};
    const dark: Record<string, string> = {};
    if (intent.primary) {
      const primary = { primary: intent.primary, 'primary-foreground': contrastText(intent.primary), ring: intent.primary };
      Object.assign(light, primary);
      if (DARK_CLASS_BLOCK.test(css)) Object.assign(dark, primary);
    }
    if (intent.font) light['font'] = FONT_STACKS[intent.font];
    const merged = mergeTheme(css, { name: 'edit', light, dark, fonts: [], ...(intent.radius !== undefined ? { radius: `${intent.radius}px` } : {}) });
    if (!merged.keptOriginal) files.set('src/index.css', merged.stylesheet);
  } else if (css === undefined) ensureStylesheet(files, next);
  else if (block) {
    // The theme asked for wins over an automatic dark theme.
    files.set('src/index.css', css.replace(block, () => themeBlock(next)).replace(AUTO_DARK_BLOCK, '\n\n'));
  } else {
    const tailwind = /^@import\s+['"]tailwindcss['"];?\s*\n/.exec(css);
    const head = tailwind ? tailwind[0] : '';
    files.set('src/index.css', `${head}${head ? '\n' : ''}${themeBlock(next)}\n\n${css.slice(head.length)}`);
  }
  ensureStylesheet(files, next);
  const parts = [
    intent.primary ? `primary colour ${intent.primary}` : null,
    intent.background ? `background ${intent.background}` : null,
    intent.dark === true ? 'dark theme' : intent.dark === false ? 'light theme' : null,
    intent.font ? `${intent.font} font` : null,
    intent.radius !== undefined ? `${intent.radius}px corners` : null,
  ].filter(Boolean);
  return { done: true, summary: `Updated the theme: ${parts.join(', ')} (CSS variables in src/index.css).` };
}

// ---------------------------------------------------------------------------------------------
// Sections

function componentLines(app: string): { name: string; index: number }[] {
  const lines = app.split('\n');
  return lines.flatMap((line, index) => {
    const m = /^\s*<([A-Z]\w*)\s*\/>\s*$/.exec(line);
    return m ? [{ name: m[1] as string, index }] : [];
  });
}

function sectionOf(component: string): SectionId | null {
  return (SECTION_IDS.find((id) => SECTION_COMPONENTS[id] === component) as SectionId | undefined) ?? null;
}

/** Adds an import line after the last import of a file. */
export function addImport(content: string, line: string): string {
  if (content.includes(line)) return content;
  const lines = content.split('\n');
  let last = -1;
  lines.forEach((l, i) => {
    if (/^import\s/.test(l)) last = i;
  });
  lines.splice(last + 1, 0, line);
  return lines.join('\n');
}

function insertIntoApp(app: string, component: string, section: SectionId): string | null {
  const lines = app.split('\n');
  const mainClose = lines.findIndex((l) => /^\s*<\/main>\s*$/.test(l));
  if (mainClose === -1) return null;
  const mainOpen = lines.findIndex((l) => /^\s*<main\b/.test(l));
  const order = (id: SectionId) => (id === 'cta' ? SECTION_IDS.length : SECTION_IDS.indexOf(id));
  const present = componentLines(app).filter((c) => c.index > mainOpen && c.index < mainClose);
  const later = present.find((c) => {
    const id = sectionOf(c.name);
    return id !== null && order(id) > order(section);
  });
  const at = later ? later.index : mainClose;
  const indent = later ? (/^\s*/.exec(lines[later.index] as string)?.[0] ?? '') : `${/^\s*/.exec(lines[mainClose] as string)?.[0] ?? ''}  `;
  lines.splice(at, 0, `${indent}<${component} />`);
  return lines.join('\n');
}

function headerLinks(header: string, id: SectionId, add: boolean): string {
  const entry = (sid: SectionId) => `{ href: '#${sid}', label: ${str(SECTION_LABELS[sid])} },`;
  const lines = header.split('\n');
  const open = lines.findIndex((l) => /const links\b.*=\s*\[\s*$/.test(l));
  if (open === -1 || id === 'cta') return header;
  const close = lines.findIndex((l, i) => i > open && /^\s*\];\s*$/.test(l));
  if (close === -1) return header;
  const existing = lines.findIndex((l, i) => i > open && i < close && l.includes(`href: '#${id}'`));
  if (!add) {
    if (existing !== -1) lines.splice(existing, 1);
    return lines.join('\n');
  }
  if (existing !== -1) return header;
  const order = SECTION_IDS.indexOf(id);
  let at = close;
  for (let i = open + 1; i < close; i += 1) {
    const sid = /href: '#(\w+)'/.exec(lines[i] as string)?.[1] as SectionId | undefined;
    if (sid && SECTION_IDS.includes(sid) && SECTION_IDS.indexOf(sid) > order) {
      at = i;
      break;
    }
  }
  lines.splice(at, 0, `  ${entry(id)}`);
  return lines.join('\n');
}

export function addSection(files: WorkingFiles, section: SectionId, ctx: EditContext): EditOutcome {
  const app = files.get('src/App.tsx');
  const label = SECTION_LABELS[section];
  if (app === undefined) return { done: false, summary: `There is no src/App.tsx to add the ${label} section to.` };
  const { name, topic } = topicOf(files, ctx);
  const component = sectionComponent(section, { name, subject: null, topic });
  if (new RegExp(`<${component.name}\\s*/>`).test(app)) return { done: false, summary: `The page already has ${withArticle(label)} section.` };
  const inserted = insertIntoApp(app, component.name, section);
  if (inserted === null) return { done: false, summary: `I could not find where the page’s content ends (</main>) in src/App.tsx to add the ${label} section.` };
  const touched = ensureStylesheet(files);
  if (!files.has(component.path)) files.set(component.path, component.content);
  files.set('src/App.tsx', addImport(inserted, `import { ${component.name} } from './components/${component.name}';`));
  const header = files.get('src/components/Header.tsx');
  if (header) {
    const next = headerLinks(header, section, true);
    if (next !== header) files.set('src/components/Header.tsx', next);
  }
  return { done: true, summary: `Added ${withArticle(label)} section (${component.path}, rendered in src/App.tsx${header ? ', linked from the header' : ''}${touched.length ? ', with the shared styles' : ''}).` };
}

export function removeSection(files: WorkingFiles, section: SectionId): EditOutcome {
  const component = SECTION_COMPONENTS[section];
  const label = SECTION_LABELS[section];
  const usage = new RegExp(`^\\s*<${component}\\s*/>\\s*\\n`, 'm');
  const importLine = new RegExp(`^import \\{ ${component} \\} from '[^']+';\\n`, 'm');
  const changed: string[] = [];
  for (const path of sourceFiles(files)) {
    const content = files.get(path) as string;
    if (!usage.test(content)) continue;
    files.set(path, content.replace(usage, '').replace(importLine, ''));
    changed.push(path);
  }
  if (changed.length === 0) return { done: false, summary: `There is no ${label} section to remove.` };
  const file = `src/components/${component}.tsx`;
  const stillUsed = sourceFiles(files).some((p) => p !== file && new RegExp(`from\\s+['"][^'"]*/${component}['"]`).test(files.get(p) as string));
  if (files.has(file) && !stillUsed) files.delete(file);
  const header = files.get('src/components/Header.tsx');
  if (header) {
    const next = headerLinks(header, section, false);
    if (next !== header) files.set('src/components/Header.tsx', next);
  }
  return { done: true, summary: `Removed the ${label} section (${[...changed, ...(files.has(file) ? [] : [`deleted ${file}`])].join(', ')}).` };
}

// ---------------------------------------------------------------------------------------------
// Pages

export function addPage(files: WorkingFiles, intent: Extract<EditIntent, { type: 'add-page' }>, ctx: EditContext): EditOutcome {
  const { name: appName, topic } = topicOf(files, ctx);
  const pagePath = `src/pages/${intent.component}.tsx`;
  const routes = files.get('src/routes.tsx');
  if (routes && routes.includes(`path: '${intent.path}'`)) return { done: false, summary: `There is already a page at #${intent.path}.` };
  if (files.has(pagePath)) return { done: false, summary: `${pagePath} already exists.` };

  const page = pageFor(intent, { appName, topic, files });
  const styles = ensureStylesheet(files);
  for (const [path, content] of Object.entries(page.files)) if (!files.has(path)) files.set(path, content);
  files.set(pagePath, page.content);
  const route: RouteEntry = { path: intent.path, label: intent.name, component: intent.component, from: `./pages/${intent.component}` };
  const touched = [pagePath, ...styles];

  if (!files.has('src/router.tsx')) {
    files.set('src/router.tsx', ROUTER_TSX);
    touched.push('src/router.tsx');
  }
  if (routes) {
    const lines = routes.split('\n');
    const open = lines.findIndex((l) => /export const routes\b.*=\s*\[\s*$/.test(l));
    const close = lines.findIndex((l, i) => i > open && /^\];\s*$/.test(l));
    if (open === -1 || close === -1) return { done: false, summary: 'src/routes.tsx has a shape I do not recognise, so I did not add the page.' };
    lines.splice(close, 0, routeLine(route));
    const withRoute = lines.join('\n');
    const routerImport = "import { Link, useRoute } from './router';";
    files.set('src/routes.tsx', withRoute.includes(routerImport) ? withRoute.replace(routerImport, () => `${routeImport(route)}\n${routerImport}`) : addImport(withRoute, routeImport(route)));
    touched.push('src/routes.tsx');
  } else {
    // First extra page: the current App becomes the home page and routes.tsx takes over App.
    const app = files.get('src/App.tsx');
    if (app === undefined || !/export (function|const) App\b/.test(app)) {
      return { done: false, summary: 'I could not find the App component in src/App.tsx to turn it into the home page.' };
    }
    files.set('src/App.tsx', app.replace(/export (function|const) App\b/, (_m, kind: string) => `export ${kind} HomePage`));
    const homeHasHeader = /<Header\s*\/>/.test(app) && files.has('src/components/Header.tsx');
    const homeHasFooter = homeHasHeader && /<Footer\s*\/>/.test(app) && files.has('src/components/Footer.tsx');
    const home: RouteEntry = { path: '/', label: 'Home', component: 'HomePage', from: './App' };
    files.set('src/routes.tsx', routesTsx(appName, [home, route], homeHasHeader, homeHasFooter));
    files.set('src/routes.css', ROUTES_CSS);
    const main = files.get('src/main.tsx');
    const pointed = main?.replace(/import \{ App \} from '\.\/App';/, "import { App } from './routes';");
    files.set('src/main.tsx', pointed !== undefined && pointed !== main ? pointed : MAIN_TSX.replace("from './App'", "from './routes'"));
    touched.push('src/App.tsx', 'src/routes.tsx', 'src/routes.css', 'src/main.tsx');
  }
  // Link the page from the header when the app has our header.
  const header = files.get('src/components/Header.tsx');
  if (header) {
    const lines = header.split('\n');
    const open = lines.findIndex((l) => /const links\b.*=\s*\[\s*$/.test(l));
    const close = lines.findIndex((l, i) => i > open && /^\s*\];\s*$/.test(l));
    if (open !== -1 && close !== -1) {
      lines.splice(close, 0, `  { href: ${str(`#${intent.path}`)}, label: ${str(intent.name)} },`);
      files.set('src/components/Header.tsx', lines.join('\n'));
      touched.push('src/components/Header.tsx');
    }
  }
  return { done: true, summary: `Added the ${intent.name} page at #${intent.path} (${touched.join(', ')}).` };
}


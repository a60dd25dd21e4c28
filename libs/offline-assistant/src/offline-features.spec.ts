// What people asked of the offline assistant (issue #14): edits stay edits of their app, features
// are real (favourites, streaks, a dark mode toggle, checklists, pages in the app's layout), the
// landing page's examples build what they name, errors get mechanical fixes, and enhancing a
// prompt keeps its intent.
import { describe, expect, it } from '@jest/globals';
import { LANDING_EXAMPLES, type CodeError } from '@kiln/domain';
import { collect, streamProblems } from '@kiln/domain/testing';
import { article } from './code.js';
import { OfflineAiAssistant } from './offline-assistant.adapter.js';
import { bracketsBalanced, editDistance, parseFixPrompt, repairError } from './repair.js';
import { drive, starterFiles } from './testing/drive-assistant.js';

const assistant = new OfflineAiAssistant();
const starter = starterFiles();
const asInput = (files: ReadonlyMap<string, string>) => [...files].map(([path, content]) => ({ path, content }));
const all = (files: ReadonlyMap<string, string>) => [...files.values()].join('\n');
const planOf = (prompt: string, files: ReadonlyMap<string, string>) => collect(assistant.plan({ prompt, tree: [...files.keys()], files: asInput(files), history: [] }));

describe('every landing page example builds the app it names', () => {
  const words: Record<string, readonly RegExp[]> = {
    'Habit tracker': [/streak/i, /reminder/i, /weekly progress/i, /toggleDay/],
    'Recipe finder': [/ingredients you have/i, /suggestRecipes/, /favourite/i],
    Portfolio: [/photographer/i, /gallery/i, /contact/i],
    'Team standups': [/blockers/i, /daily update/i, /yesterday/i],
    'Budget planner': [/budget/i, /Monthly limits/, /Spending by category/, /spendingAgainstLimits/],
  };

  it('has words to check for each example', () => {
    expect(LANDING_EXAMPLES.map((e) => e.label).sort()).toEqual(Object.keys(words).sort());
  });

  it.each(LANDING_EXAMPLES.map((e) => [e.label, e.prompt] as const))('%s', async (label, prompt) => {
    const result = await drive(assistant, prompt, starter);
    expect(result.plan.kind).toBe('build');
    const text = all(result.files);
    for (const pattern of words[label] ?? []) expect(text).toMatch(pattern);
  });
});

describe('edits of an existing app stay edits', () => {
  it('adds favourites to Pantry instead of replacing it with a new app', async () => {
    const first = await drive(assistant, 'A recipe finder where I can save favourite recipes, called Pantry', starter);
    expect(first.files.get('src/site.ts')).toContain("name: 'Pantry'");
    // The first build already has them: a heart, kept in localStorage.
    expect(first.files.get('src/components/Recipes.tsx')).toContain('toggleFavourite');
    expect(first.files.get('src/favourites.ts')).toContain('localStorage.setItem');
    const withPage = await drive(assistant, 'Add an about page', first.files);
    // An app made before favourites existed: the edit adds them, keeping the page and name.
    const older = new Map(withPage.files);
    older.set('src/components/Recipes.tsx', (older.get('src/components/Recipes.tsx') as string).replace(/favourites/g, 'favs'));
    const edit = await drive(assistant, 'save my favourite recipes with a heart button', older);
    expect(edit.plan.kind).toBe('edit');
    expect(edit.files.get('src/site.ts')).toBe(withPage.files.get('src/site.ts'));
    expect(edit.files.get('src/pages/AboutPage.tsx')).toBe(withPage.files.get('src/pages/AboutPage.tsx'));
    expect(edit.files.get('src/index.css')).toBe(withPage.files.get('src/index.css'));
    expect(edit.files.get('src/components/Recipes.tsx')).toContain("from '../favourites'");
    expect(edit.text).toContain('heart button');
  });

  it.each(['A recipe book with a heart button', 'Build me a kanban board', 'I need a todo list for chores'])('never plans a build for “%s” on an existing app', async (prompt) => {
    const { files } = await drive(assistant, 'A landing page for a gym called Iron Hall', starter);
    const events = await planOf(prompt, files);
    const done = events.find((e) => e.type === 'done');
    if (done?.type === 'done') expect(done.plan.kind).toBe('edit');
    else expect(events).toEqual([{ type: 'error', error: { code: 'AI.DECLINED', message: expect.stringContaining('add a dark mode toggle') } }]);
  });

  it('builds a new app on an existing one only when asked for one in so many words', async () => {
    const { files } = await drive(assistant, 'A landing page for a gym called Iron Hall', starter);
    const events = await planOf('Start over: build a new kanban board app', files);
    const done = events.at(-1);
    expect(done?.type === 'done' && done.plan.kind).toBe('build');
    for (const prompt of ['Add a new page called Team', 'Add a new blog page']) {
      const page = (await planOf(prompt, files)).at(-1);
      expect(page?.type === 'done' && page.plan.kind).toBe('edit');
    }
  });

  it('declines what it cannot do as an edit, listing the edits it supports, and never approximates', async () => {
    const { files } = await drive(assistant, 'A todo list app', starter);
    const events = await planOf('Add streaks with push notifications to my phone', files);
    expect(events).toEqual([{ type: 'error', error: { code: 'AI.DECLINED', message: expect.stringContaining('Offline I can change this app in these ways') } }]);
    const favourites = await planOf('Let me save favourites with a heart', files);
    expect(favourites).toEqual([{ type: 'error', error: { code: 'AI.DECLINED', message: expect.stringContaining('only to a recipe app') } }]);
  });
});

describe('a dark mode toggle', () => {
  it('is a button in the header that switches .dark on <html>, remembered in localStorage, keeping the theme’s colours', async () => {
    const { files } = await drive(assistant, 'A blog about hiking in teal', starter);
    // The theme builder's colours: a :root and a .dark block the edit must keep.
    const themed = `:root {\n  --background: oklch(0.99 0.01 200);\n  --primary: oklch(0.55 0.12 190);\n}\n\n.dark {\n  --background: oklch(0.2 0.02 200);\n  --primary: oklch(0.75 0.12 190);\n}\n\n${(files.get('src/index.css') as string).replace(/:root \{[^}]*\}/, '')}`;
    const start = new Map(files).set('src/index.css', themed);
    const edit = await drive(assistant, 'add a dark mode toggle', start);
    expect(edit.plan.kind).toBe('edit');
    const css = edit.files.get('src/index.css') as string;
    expect(css).toContain('--background: oklch(0.99 0.01 200);');
    expect(css).toContain('--primary: oklch(0.75 0.12 190);');
    expect(css).not.toContain('color-scheme: dark;\n}\n\n.dark');
    const toggle = edit.files.get('src/components/ThemeToggle.tsx') as string;
    expect(toggle).toContain("document.documentElement.classList.toggle('dark', mode === 'dark')");
    expect(toggle).toContain('localStorage.setItem(STORAGE_KEY, next)');
    expect(toggle).toContain('prefers-color-scheme: dark');
    expect(edit.files.get('src/components/Header.tsx')).toContain('<ThemeToggle />');
    expect(edit.files.get('index.html')).toContain("classList.add('dark')");
  });

  it('changes only the variables asked for, keeping the theme builder’s other colours', async () => {
    const { files } = await drive(assistant, 'A blog about hiking', starter);
    const themed = `:root {\n  --background: oklch(0.99 0.01 200);\n  --primary: oklch(0.55 0.12 190);\n}\n\n.dark {\n  --background: oklch(0.2 0.02 200);\n}\n\n${(files.get('src/index.css') as string).replace(/:root \{[^}]*\}/, '')}`;
    const edit = await drive(assistant, 'Use green as the primary colour and rounder corners', new Map(files).set('src/index.css', themed));
    const css = edit.files.get('src/index.css') as string;
    expect(css).toContain('--background: oklch(0.99 0.01 200);');
    expect(css).toContain('--background: oklch(0.2 0.02 200);');
    expect(css).toMatch(/:root \{[^}]*--primary: #15803d;[^}]*--radius: 22px;/);
    expect(css).toMatch(/\.dark \{[^}]*--primary: #15803d;/);
  });

  it('gives an app with only its :root colours a .dark palette, leaving :root as it was', async () => {
    const { files } = await drive(assistant, 'A todo list app in green', starter);
    const before = files.get('src/index.css') as string;
    const edit = await drive(assistant, 'Add a toggle to switch between light and dark mode', files);
    const css = edit.files.get('src/index.css') as string;
    expect(css).toContain(/:root \{[^}]*\}/.exec(before)?.[0]);
    expect(css).toMatch(/\.dark \{[^}]*--primary: #15803d;[^}]*color-scheme: dark;/);
    expect(css).toContain('@custom-variant dark (&:where(.dark, .dark *));');
  });
});

describe('features people ask for', () => {
  it('adds a shopping list page in the app’s own layout, linked from the header', async () => {
    const { files } = await drive(assistant, 'A recipe finder called Pantry', starter);
    const edit = await drive(assistant, 'add shopping list', files);
    expect(edit.plan.kind).toBe('edit');
    expect(edit.plan.tasks[0]?.title).toBe('Add a Shopping List page at #/shopping-list');
    expect(edit.files.get('src/routes.tsx')).toContain('<Header />');
    expect(edit.files.get('src/routes.tsx')).not.toContain('<RouteBar />\n      <Page />');
    expect(edit.files.get('src/components/Header.tsx')).toContain("{ href: '#/shopping-list', label: 'Shopping List' },");
    expect(all(edit.files)).toContain('Add item');
    expect(edit.files.get('src/todos.ts')).toContain('localStorage');
  });

  it('builds a shopping list, and a habit tracker with streaks, as first builds', async () => {
    const list = await drive(assistant, 'A shopping list for my groceries', starter);
    expect(list.files.get('src/components/TodoList.tsx')).toContain('Add item');
    const habits = await drive(assistant, 'A habit tracker called Streaks', starter);
    expect(habits.files.get('src/habits.ts')).toContain('export function streak(');
  });

  it('writes “an About page”, “an FAQ section”, “a user” (a/an by the first sound)', async () => {
    expect([article('About'), article('FAQ'), article('user'), article('Hour'), article('Team'), article('SDK'), article('expense tracker')]).toEqual(['an', 'an', 'a', 'an', 'a', 'an', 'an']);
    const { files } = await drive(assistant, 'A landing page for a gym called Iron Hall', starter);
    const edit = await drive(assistant, 'Add an about page', files);
    expect(edit.plan.tasks[0]?.title).toBe('Add an About page at #/about');
  });

  it('uses system fonts only: no web font to load offline', async () => {
    const { files } = await drive(assistant, 'A blog about hiking with a serif font', starter);
    expect(all(files)).not.toMatch(/fonts\.googleapis|@import url\(|'Inter'|'Nunito'|JetBrains/);
    expect(files.get('src/index.css')).toContain('--font: ui-serif');
  });
});

describe('fixing errors without a model', () => {
  const fixWith = async (files: Map<string, string>, error: CodeError) => {
    const prompt = `Fix this error in ${error.file}:${error.line}:${error.column}: ${error.message}`;
    expect(parseFixPrompt(prompt)).toEqual(error);
    return drive(assistant, prompt, files);
  };
  const app = (text: string) => new Map(starter).set('src/site.ts', "export const site = { name: 'X' };\n").set('src/App.tsx', text);

  it('adds a missing closing brace at the reported place', async () => {
    const broken = 'export function App() {\n  return <p>Hi</p>;\n';
    const result = await fixWith(app(broken), { file: 'src/App.tsx', line: 3, column: 1, message: "'}' expected.", severity: 'error' });
    expect(result.plan.kind).toBe('edit');
    expect(result.files.get('src/App.tsx')).toBe('export function App() {\n  return <p>Hi</p>;\n}');
  });

  it('adds a missing parenthesis and removes a stray one', async () => {
    const missing = await fixWith(app('export const n = Math.max(1, 2;\n'), { file: 'src/App.tsx', line: 1, column: 31, message: "')' expected.", severity: 'error' });
    expect(missing.files.get('src/App.tsx')).toBe('export const n = Math.max(1, 2);\n');
    const stray = await fixWith(app('export function f() {\n  return 1;\n}}\n'), { file: 'src/App.tsx', line: 3, column: 2, message: 'Declaration or statement expected.', severity: 'error' });
    expect(stray.files.get('src/App.tsx')).toBe('export function f() {\n  return 1;\n}\n');
  });

  it('imports a React hook or a component another file exports', async () => {
    const hook = await fixWith(app("import { useEffect } from 'react';\nexport function App() {\n  const [n] = useState(0);\n  useEffect(() => {}, []);\n  return <p>{n}</p>;\n}\n"), {
      file: 'src/App.tsx',
      line: 3,
      column: 15,
      message: "Cannot find name 'useState'.",
      severity: 'error',
    });
    expect(hook.files.get('src/App.tsx')).toContain("import { useEffect, useState } from 'react';");
    const files = app('export function App() {\n  return <Card />;\n}\n').set('src/components/ui/card.tsx', 'export function Card() {\n  return <div />;\n}\n');
    const component = await fixWith(files, { file: 'src/App.tsx', line: 2, column: 11, message: "Cannot find name 'Card'.", severity: 'error' });
    expect(component.files.get('src/App.tsx')).toMatch(/^import \{ Card \} from '\.\/components\/ui\/card';/);
  });

  it('corrects a name misspelt by one or two letters', async () => {
    const result = await fixWith(app('const total = 3;\nexport const shown = totl + 1;\n'), { file: 'src/App.tsx', line: 2, column: 22, message: "Cannot find name 'totl'.", severity: 'error' });
    expect(result.files.get('src/App.tsx')).toBe('const total = 3;\nexport const shown = total + 1;\n');
    expect(editDistance('recieve', 'receive')).toBe(1);
  });

  it('declines honestly when a model is needed, and repairs in repair rounds too', async () => {
    const files = app('export function App() {\n  return <p>{user.name}</p>;\n}\n');
    const events = await planOf("Fix this error in src/App.tsx:2:14: Cannot find name 'user'.", files);
    expect(events).toEqual([{ type: 'error', error: { code: 'AI.DECLINED', message: expect.stringContaining('A configured AI model is needed') } }]);
    const round = await collect(
      assistant.runTask({ prompt: 'anything', tree: [], files: asInput(app('export const a = [1, 2;\n')), history: [], previousErrors: [{ file: 'src/App.tsx', line: 1, column: 23, message: "']' expected.", severity: 'error' }] }),
    );
    expect(streamProblems(round)).toEqual([]);
    expect(round.find((e) => e.type === 'operation')).toBeDefined();
    expect(bracketsBalanced("const s = 'it\\'s { fine';\n// }\nconst t = `x ${1}`;")).toBe(true);
    expect(repairError({ file: 'missing.ts', line: 1, column: 1, message: "'}' expected.", severity: 'error' }, files)).toBeNull();
  });
});

describe('enhancing a prompt keeps its intent', () => {
  it.each([
    ['add shopping list', /Shopping List page/],
    ['save my favourite recipes with a heart button', /heart button that saves favourites/],
    ['add a dark mode toggle', /dark mode toggle/],
    ['make the cards bigger', /Make the cards bigger\./],
  ])('“%s” stays about the current app', async (prompt, expected) => {
    const enhanced = await assistant.enhancePrompt(prompt);
    expect(enhanced).toMatch(expected);
    expect(enhanced).not.toMatch(/Northwind|Recipe Box|landing page|Build a/);
  });

  it('names only the kind and the name the idea itself names', async () => {
    const enhanced = await assistant.enhancePrompt('A habit tracker with daily streaks');
    expect(enhanced).toContain('Build a habit tracker.');
    expect(enhanced).toContain('A habit tracker with daily streaks');
    expect(enhanced).not.toContain('called');
  });
});

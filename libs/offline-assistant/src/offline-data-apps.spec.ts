// Issue #16 item 5: with a database connected, the offline assistant builds data-backed apps
// (sign-in, the person's own rows through @supabase/supabase-js, the table's migration); without
// one, a request for them is declined for free with what to do.
import { describe, expect, it } from '@jest/globals';
import type { AssistantDatabase } from '@kiln/domain';
import { collect } from '@kiln/domain/testing';
import { DATA_TABLES, MIGRATION_PATH, type DataTableName } from './data/data-tables.js';
import { SUPABASE_PACKAGE } from './data/data-app.js';
import { OfflineAiAssistant } from './offline-assistant.adapter.js';
import { drive, starterFiles } from './testing/drive-assistant.js';

const assistant = new OfflineAiAssistant();
const starter = starterFiles();
const database: AssistantDatabase = { connected: true, tables: [] };

export const DATA_PROMPTS: Readonly<Record<DataTableName, string>> = {
  todos: 'a todo list where each person signs in and sees only their own todos',
  notes: 'A notes app where people sign in and keep their own notes',
  habits: 'Build a habit tracker with sign-in so each user tracks their own habits',
  bookings: 'A booking app for my hair salon where clients log in to book appointments',
};

const file = (files: ReadonlyMap<string, string>, path: string): string => {
  const content = files.get(path);
  if (content === undefined) throw new Error(`${path} is missing; files: ${[...files.keys()].join(', ')}`);
  return content;
};

/** Every relative import of a generated file names a file that exists (what tsc would resolve). */
function unresolvedImports(files: ReadonlyMap<string, string>): string[] {
  const missing: string[] = [];
  for (const [path, content] of files) {
    if (!/\.(ts|tsx)$/.test(path)) continue;
    for (const match of content.matchAll(/from '(\.{1,2}\/[^']+)'|import '(\.{1,2}\/[^']+)'/g)) {
      const spec = (match[1] ?? match[2]) as string;
      const parts = path.split('/').slice(0, -1);
      for (const piece of spec.split('/')) {
        if (piece === '..') parts.pop();
        else if (piece !== '.') parts.push(piece);
      }
      const base = parts.join('/');
      if (![base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].some((p) => files.has(p))) missing.push(`${path} → ${spec}`);
    }
  }
  return missing;
}

describe('with a database connected, the offline assistant builds data-backed apps', () => {
  it.each(Object.entries(DATA_PROMPTS) as [DataTableName, string][])('%s: sign-in, own rows through supabase-js, and the migration', async (table, prompt) => {
    const t = DATA_TABLES[table];
    const result = await drive(assistant, prompt, starter, [], database);
    expect(result.plan.kind).toBe('build');
    expect(result.plan.tasks.map((task) => task.title)).toContain(`Build the ${t.words.app} with sign-in`);
    const f = result.files;
    const client = file(f, 'src/lib/supabase.ts');
    expect(client).toContain("from '@supabase/supabase-js'");
    expect(client).toContain('import.meta.env.VITE_SUPABASE_URL');
    expect(client).toContain('import.meta.env.VITE_SUPABASE_ANON_KEY');
    const gate = file(f, 'src/components/AuthGate.tsx');
    for (const call of ['auth.signUp(', 'auth.signInWithPassword(', 'auth.signOut()', 'auth.onAuthStateChange(', 'auth.getSession()']) expect(gate.replace(/\s+/g, '')).toContain(call);
    const data = file(f, `src/data/${table}.ts`);
    expect(data).toContain(`.from('${table}').select('*')`);
    expect(data).toMatch(/\.insert\(row\)/);
    expect(data).toMatch(/const row = \{ user_id: userId,/);
    expect(data).toMatch(/\.update\(changes\)\.eq\('id', id\)/);
    expect(data).toMatch(/\.delete\(\)\.eq\('id', id\)/);
    const board = file(f, `src/components/${t.component}.tsx`);
    expect(board).toMatch(/Loading your /);
    expect(board).toContain('role="alert"');
    expect(file(f, 'src/App.tsx')).toContain(`<${t.component} />`);
    const sql = file(f, MIGRATION_PATH(t));
    expect(sql).toContain(`create table if not exists public.${table} (`);
    expect(sql).toContain('user_id uuid not null default auth.uid()');
    expect(sql).toContain(`alter table public.${table} enable row level security;`);
    for (const command of ['select', 'insert', 'update', 'delete']) expect(sql).toMatch(new RegExp(`for ${command} to authenticated (using|with check) \\(user_id = auth\\.uid\\(\\)\\)`));
    // The dependency came as an add_dependency operation, pinned.
    expect(result.operations).toContainEqual({ type: 'add_dependency', name: SUPABASE_PACKAGE.name, version: SUPABASE_PACKAGE.version });
    expect(JSON.parse(file(f, 'package.json')).dependencies[SUPABASE_PACKAGE.name]).toBe(SUPABASE_PACKAGE.version);
    expect(unresolvedImports(f)).toEqual([]);
  });

  it('every class of the sign-in screen and the board is one the app styles (no bare-text buttons, no edge-to-edge board)', async () => {
    const result = await drive(assistant, DATA_PROMPTS.todos, starter, [], database);
    const css = [...result.files].filter(([path]) => path.endsWith('.css')).map(([, content]) => content).join('\n');
    const screens = file(result.files, 'src/components/AuthGate.tsx') + file(result.files, 'src/components/TodoBoard.tsx');
    const used = new Set([...screens.matchAll(/className="([^"]+)"/g)].flatMap((m) => (m[1] as string).split(/\s+/)));
    const unstyled = [...used].filter((name) => !new RegExp(`\\.${name}(?![\\w-])`).test(css));
    expect(used.size).toBeGreaterThan(2);
    expect(unstyled).toEqual([]);
  });

  it('a request without accounts still builds the local version, database or not', async () => {
    const result = await drive(assistant, 'Create a todo list app', starter, [], database);
    expect(result.files.has('src/lib/supabase.ts')).toBe(false);
    expect(result.files.get('src/todos.ts')).toContain('localStorage');
    expect(result.operations.some((o) => o.type === 'add_dependency')).toBe(false);
  });

  it.each(['A notes app for my own ideas', 'A habit tracker where each habit has a streak', 'Build a todo list app with a dark theme', 'A shopping list for the team'])(
    'words that ask for no accounts build the local version without a database: %s',
    async (prompt) => {
      const result = await drive(assistant, prompt, starter);
      expect(result.plan.kind).toBe('build');
      expect(result.files.has('src/lib/supabase.ts')).toBe(false);
    },
  );

  it('start over with a data-backed app replaces a local one', async () => {
    const local = await drive(assistant, 'A todo list app called Chores', starter, [], database);
    const again = await drive(assistant, 'Start over with a todo list where each person signs in and sees only their own todos', local.files, [], database);
    expect(again.plan.kind).toBe('build');
    expect(again.files.get('src/App.tsx')).toContain('<TodoBoard />');
  });

  it('does not add the dependency twice when package.json already has it', async () => {
    const manifest = JSON.parse(file(starter, 'package.json'));
    manifest.dependencies[SUPABASE_PACKAGE.name] = '^2.40.0';
    const withClient = new Map(starter).set('package.json', JSON.stringify(manifest, null, 2));
    const result = await drive(assistant, DATA_PROMPTS.todos, withClient, [], database);
    expect(result.operations.some((o) => o.type === 'add_dependency')).toBe(false);
    expect(result.files.has('src/lib/supabase.ts')).toBe(true);
  });
});

describe('without a database, a request for a data-backed app is declined with what to do', () => {
  it.each(Object.entries(DATA_PROMPTS))('%s', async (_table, prompt) => {
    const events = await collect(assistant.plan({ prompt, tree: [...starter.keys()], files: [...starter].map(([path, content]) => ({ path, content })), history: [] }));
    const error = events.find((e) => e.type === 'error');
    expect(error).toMatchObject({ type: 'error', error: { code: 'AI.DECLINED' } });
    const message = error?.type === 'error' ? error.error.message : '';
    expect(message).toMatch(/needs a database/);
    expect(message).toMatch(/Connect one first/);
    expect(events.some((e) => e.type === 'done')).toBe(false);
  });

  it('runTask without a plan says the same and writes nothing', async () => {
    const events = await collect(assistant.runTask({ prompt: DATA_PROMPTS.todos, tree: [...starter.keys()], files: [...starter].map(([path, content]) => ({ path, content })), history: [] }));
    expect(events.some((e) => e.type === 'operation')).toBe(false);
    expect(events.filter((e) => e.type === 'text').map((e) => (e.type === 'text' ? e.text : '')).join('')).toMatch(/needs a database/);
  });
});

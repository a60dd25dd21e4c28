// The files of a data-backed app: the Supabase client, the sign-in screen, the table's data
// functions and the main component that lists, adds, updates and deletes the person's own rows.
import { str } from '../code.js';
import type { KindBlueprint, KindContext } from '../kinds/kind.js';
import { migrationSql, MIGRATION_PATH, type DataTable } from './data-tables.js';

/** The client library the generated code imports (the last release that installs on Node 20). */
export const SUPABASE_PACKAGE = { name: '@supabase/supabase-js', version: '2.109.0' } as const;

export const SUPABASE_CLIENT_TS = `import { createClient, type SupabaseClient } from '@supabase/supabase-js';

// Kiln writes these into .env.local when the project's database is provisioned.
const url = import.meta.env.VITE_SUPABASE_URL as string | undefined;
const anonKey = import.meta.env.VITE_SUPABASE_ANON_KEY as string | undefined;

/** The database client, or null when the project has no database settings yet. */
export const supabase: SupabaseClient | null = url && anonKey ? createClient(url, anonKey, { auth: { persistSession: true, autoRefreshToken: true } }) : null;

/** A message people can act on, from whatever the client threw or returned. */
export function messageOf(error: unknown): string {
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string' && error.message !== '') return error.message;
  return 'Something went wrong. Check your connection and try again.';
}
`;

export const AUTH_GATE_TSX = `import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { Session } from '@supabase/supabase-js';
import { messageOf, supabase } from '../lib/supabase';

/** Shows the sign-in screen until someone is signed in, then the app with a sign-out button. */
export function AuthGate({ children }: { children: (session: Session) => ReactNode }) {
  const [session, setSession] = useState<Session | null>(null);
  const [checking, setChecking] = useState(true);
  const [mode, setMode] = useState<'sign-in' | 'sign-up'>('sign-in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    if (!supabase) {
      setChecking(false);
      return;
    }
    supabase.auth
      .getSession()
      .then(({ data }) => setSession(data.session))
      .catch((e: unknown) => setError(messageOf(e)))
      .finally(() => setChecking(false));
    // The client keeps the session in the browser and refreshes it; this hears every change.
    const { data } = supabase.auth.onAuthStateChange((_event, next) => setSession(next));
    return () => data.subscription.unsubscribe();
  }, []);

  if (!supabase) {
    return (
      <div className="auth-card" role="alert">
        <h2>Connect a database</h2>
        <p>This app keeps its data in the project's database. Connect one in Kiln's Database panel, then reload.</p>
      </div>
    );
  }
  const client = supabase;
  if (checking) return <p className="data-status" aria-live="polite">Checking your session…</p>;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const { data, error: failed } =
        mode === 'sign-in' ? await client.auth.signInWithPassword({ email, password }) : await client.auth.signUp({ email, password });
      if (failed) setError(failed.message);
      else if (mode === 'sign-up' && !data.session) setNotice('Check your email to confirm your account, then sign in.');
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  if (session) {
    return (
      <div>
        <div className="account-bar">
          <span>Signed in as {session.user.email}</span>
          <button type="button" className="link-button" onClick={() => void client.auth.signOut()}>
            Sign out
          </button>
        </div>
        {children(session)}
      </div>
    );
  }

  return (
    <form className="auth-card" onSubmit={(e) => void submit(e)} aria-labelledby="auth-title">
      <h2 id="auth-title">{mode === 'sign-in' ? 'Sign in' : 'Create your account'}</h2>
      <label>
        Email
        <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label>
        Password
        <input type="password" autoComplete={mode === 'sign-in' ? 'current-password' : 'new-password'} required minLength={6} value={password} onChange={(e) => setPassword(e.target.value)} />
      </label>
      {error && <p className="data-error" role="alert">{error}</p>}
      {notice && <p className="data-status" role="status">{notice}</p>}
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? 'Please wait…' : mode === 'sign-in' ? 'Sign in' : 'Sign up'}
      </button>
      <button type="button" className="link-button" onClick={() => setMode(mode === 'sign-in' ? 'sign-up' : 'sign-in')}>
        {mode === 'sign-in' ? 'New here? Create an account' : 'Already have an account? Sign in'}
      </button>
    </form>
  );
}
`;

export const DATA_CSS = `.auth-card { display: grid; gap: 0.75rem; max-width: 24rem; margin: 2rem auto; padding: 1.5rem; border: 1px solid color-mix(in srgb, currentColor 15%, transparent); border-radius: 0.75rem; }
.auth-card label, .data-form label { display: grid; gap: 0.25rem; font-weight: 500; }
.auth-card input, .data-form input, .data-form textarea { padding: 0.5rem 0.75rem; border: 1px solid color-mix(in srgb, currentColor 25%, transparent); border-radius: 0.5rem; font: inherit; }
.link-button { background: none; border: none; color: inherit; text-decoration: underline; cursor: pointer; padding: 0; }
.account-bar { display: flex; justify-content: space-between; gap: 1rem; margin-bottom: 1rem; font-size: 0.9rem; }
.data-form { display: grid; gap: 0.75rem; margin-bottom: 1.5rem; }
.data-list { list-style: none; padding: 0; display: grid; gap: 0.5rem; }
.data-row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.75rem; padding: 0.75rem; border: 1px solid color-mix(in srgb, currentColor 15%, transparent); border-radius: 0.5rem; }
.data-row .data-text { flex: 1 1 12rem; }
.data-row.is-flagged .data-text { opacity: 0.7; }
.data-detail { display: block; font-size: 0.875rem; opacity: 0.8; white-space: pre-wrap; }
.data-error { color: #b91c1c; }
.data-status { opacity: 0.8; }
`;

function dataTs(t: DataTable): string {
  const detailType = 'string';
  const flagType = t.flag.kind === 'boolean' ? 'boolean' : 'number';
  return `import { supabase } from '../lib/supabase';

export interface ${t.type} {
  id: string;
  user_id: string;
  ${t.text.column}: string;
  ${t.detail.column}: ${detailType};
  ${t.flag.column}: ${flagType};
  created_at: string;
}

function client() {
  if (!supabase) throw new Error('The database is not connected.');
  return supabase;
}

/** The signed-in person's ${t.words.items} (row-level security returns no one else's), newest first. */
export async function list${t.type}s(): Promise<${t.type}[]> {
  const { data, error } = await client().from(${str(t.table)}).select('*').order('created_at', { ascending: false });
  if (error) throw error;
  return (data ?? []) as ${t.type}[];
}

export async function add${t.type}(userId: string, ${t.text.column}: string, ${t.detail.column}: string): Promise<${t.type}> {
  const row = { user_id: userId, ${t.text.column}: ${t.text.column}.trim(), ${t.detail.column} };
  const { data, error } = await client().from(${str(t.table)}).insert(row).select().single();
  if (error) throw error;
  return data as ${t.type};
}

export async function update${t.type}(id: string, changes: Partial<Pick<${t.type}, ${str(t.text.column)} | ${str(t.flag.column)}>>): Promise<${t.type}> {
  const { data, error } = await client().from(${str(t.table)}).update(changes).eq('id', id).select().single();
  if (error) throw error;
  return data as ${t.type};
}

export async function delete${t.type}(id: string): Promise<void> {
  const { error } = await client().from(${str(t.table)}).delete().eq('id', id);
  if (error) throw error;
}
`;
}

function detailInput(t: DataTable): string {
  if (t.detail.input === 'textarea') return `<textarea rows={3} value={detail} onChange={(e) => setDetail(e.target.value)} />`;
  return `<input type="datetime-local" required value={detail} onChange={(e) => setDetail(e.target.value)} />`;
}

function detailShown(t: DataTable): string {
  const value = `item.${t.detail.column}`;
  if (t.detail.input === 'datetime-local') return `<span className="data-detail">{new Date(${value}).toLocaleString()}</span>`;
  return `{${value} && <span className="data-detail">{${value}}</span>}`;
}

function boardTsx(t: DataTable): string {
  const flag = `item.${t.flag.column}`;
  const flagged = t.flag.kind === 'boolean' ? flag : `${flag} > 0`;
  const change = t.flag.kind === 'boolean' ? `{ ${t.flag.column}: !${flag} }` : `{ ${t.flag.column}: ${flag} + 1 }`;
  const label = t.flag.kind === 'boolean' ? `{${flag} ? ${str(t.flag.undo ?? t.flag.action)} : ${str(t.flag.action)}}` : `${t.flag.action} ({${flag}} day streak)`;
  const detailValue = t.detail.input === 'datetime-local' ? `new Date(detail).toISOString()` : 'detail';
  return `import { useEffect, useState, type FormEvent } from 'react';
import type { Session } from '@supabase/supabase-js';
import { AuthGate } from './AuthGate';
import { messageOf } from '../lib/supabase';
import { add${t.type}, delete${t.type}, list${t.type}s, update${t.type}, type ${t.type} } from '../data/${t.table}';

function ${t.type}s({ session }: { session: Session }) {
  const [items, setItems] = useState<${t.type}[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [detail, setDetail] = useState('');
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    list${t.type}s()
      .then((rows) => live && setItems(rows))
      .catch((e: unknown) => live && setError(messageOf(e)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [session.user.id]);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '') return;
    setSaving(true);
    setError(null);
    try {
      const row = await add${t.type}(session.user.id, text, ${detailValue});
      setItems((current) => [row, ...current]);
      setText('');
      setDetail('');
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setSaving(false);
    }
  };

  const change = async (item: ${t.type}) => {
    setError(null);
    try {
      const row = await update${t.type}(item.id, ${change});
      setItems((current) => current.map((i) => (i.id === row.id ? row : i)));
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const remove = async (item: ${t.type}) => {
    setError(null);
    try {
      await delete${t.type}(item.id);
      setItems((current) => current.filter((i) => i.id !== item.id));
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <div>
      <form className="data-form" onSubmit={(e) => void add(e)}>
        <label>
          ${t.text.label}
          <input value={text} placeholder=${JSON.stringify(t.text.placeholder)} required maxLength={500} onChange={(e) => setText(e.target.value)} />
        </label>
        <label>
          ${t.detail.label}
          ${detailInput(t)}
        </label>
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? 'Saving…' : 'Add ${t.words.item}'}
        </button>
      </form>
      {error && <p className="data-error" role="alert">{error}</p>}
      <h3>${t.words.heading}</h3>
      {loading ? (
        <p className="data-status" aria-live="polite">Loading your ${t.words.items}…</p>
      ) : items.length === 0 ? (
        <p className="data-status">${t.words.empty}</p>
      ) : (
        <ul className="data-list">
          {items.map((item) => (
            <li key={item.id} className={${flagged} ? 'data-row is-flagged' : 'data-row'}>
              <span className="data-text">
                {item.${t.text.column}}
                ${detailShown(t)}
              </span>
              <button type="button" className="btn btn-ghost btn-small" onClick={() => void change(item)}>
                ${label}
              </button>
              <button type="button" className="link-button" onClick={() => void remove(item)} aria-label={\`Delete \${item.${t.text.column}}\`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ${t.component}() {
  return (
    <section id="${t.table}" className="section">
      <div className="wrap">
        <AuthGate>{(session) => <${t.type}s session={session} />}</AuthGate>
      </div>
    </section>
  );
}
`;
}

/** The files of the data-backed app, by path (the migration included). */
export function dataAppFiles(t: DataTable): Record<string, string> {
  return {
    'src/lib/supabase.ts': SUPABASE_CLIENT_TS,
    'src/components/AuthGate.tsx': AUTH_GATE_TSX,
    [`src/data/${t.table}.ts`]: dataTs(t),
    'src/data.css': DATA_CSS,
    [MIGRATION_PATH(t)]: migrationSql(t),
  };
}

/** The kind's blueprint for a data-backed app: the main component behind a sign-in. */
export function dataBlueprint(t: DataTable, _ctx: KindContext): KindBlueprint {
  const main = { name: t.component, path: `src/components/${t.component}.tsx`, content: `import '../data.css';\n${boardTsx(t)}` };
  return {
    main: [main],
    support: dataAppFiles(t),
    coreSections: [],
    hero: 'compact',
    links: [{ href: `#${t.table}`, label: t.words.heading.replace('Your ', '').replace(/^./, (c) => c.toUpperCase()) }],
    coreTask: {
      title: `Build the ${t.words.app} with sign-in`,
      description: `Sign-in and sign-up with email and password, the person's own ${t.words.items} kept in the database (${t.table} table, owner-only row-level security, migration ${MIGRATION_PATH(t)}), with loading and error states.`,
    },
  };
}

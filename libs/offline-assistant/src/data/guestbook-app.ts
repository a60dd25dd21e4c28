// The live guest book the offline assistant builds when the project has a database (issue 18 item
// 4): signed-in people write entries everyone signed in can read, and every open window sees a new
// entry at once through realtime's postgres_changes (row-level security holds for live rows too).
import type { KindBlueprint } from '../kinds/kind.js';
import { AUTH_GATE_TSX, DATA_CSS, SUPABASE_CLIENT_TS } from './data-app.js';
import type { LiveApp } from './live-apps.js';

export const GUESTBOOK_MIGRATION_PATH = 'supabase/migrations/0001_guestbook_entries.sql';

export const GUESTBOOK_MIGRATION_SQL = `-- guest book: signed-in people sign it, everyone signed in reads it, and only the author may
-- delete an entry. Its changes are sent live to open windows (realtime's postgres_changes).
create table if not exists public.guestbook_entries (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  name text not null check (length(name) between 1 and 80),
  message text not null check (length(message) between 1 and 500),
  created_at timestamptz not null default now()
);

create index if not exists guestbook_entries_created_at_idx on public.guestbook_entries (created_at);

alter table public.guestbook_entries enable row level security;

drop policy if exists "guestbook: signed-in people read" on public.guestbook_entries;
create policy "guestbook: signed-in people read" on public.guestbook_entries for select to authenticated using (true);
drop policy if exists "guestbook: authors sign" on public.guestbook_entries;
create policy "guestbook: authors sign" on public.guestbook_entries for insert to authenticated with check (user_id = auth.uid());
drop policy if exists "guestbook: authors delete" on public.guestbook_entries;
create policy "guestbook: authors delete" on public.guestbook_entries for delete to authenticated using (user_id = auth.uid());

grant select, insert, delete on public.guestbook_entries to authenticated;
`;

const ENTRIES_TS = `import type { RealtimeChannel } from '@supabase/supabase-js';
import { supabase } from '../lib/supabase';

export interface Entry {
  id: string;
  user_id: string;
  name: string;
  message: string;
  created_at: string;
}

function client() {
  if (!supabase) throw new Error('The database is not connected.');
  return supabase;
}

/** The newest 100 entries, newest first. */
export async function listEntries(): Promise<Entry[]> {
  const { data, error } = await client().from('guestbook_entries').select('*').order('created_at', { ascending: false }).limit(100);
  if (error) throw error;
  return (data ?? []) as Entry[];
}

export async function signGuestbook(userId: string, name: string, message: string): Promise<Entry> {
  const row = { user_id: userId, name: name.trim(), message: message.trim() };
  const { data, error } = await client().from('guestbook_entries').insert(row).select().single();
  if (error) throw error;
  return data as Entry;
}

export async function deleteEntry(id: string): Promise<void> {
  const { error } = await client().from('guestbook_entries').delete().eq('id', id);
  if (error) throw error;
}

/** Hears every new and deleted entry, from any window; answers how to stop listening. */
export function watchEntries(onAdded: (entry: Entry) => void, onDeleted: (id: string) => void, onStatus: (live: boolean) => void): () => void {
  const db = client();
  const channel: RealtimeChannel = db
    .channel('guestbook')
    .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'guestbook_entries' }, (payload) => onAdded(payload.new as Entry))
    .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'guestbook_entries' }, (payload) => {
      const id = (payload.old as Partial<Entry>).id;
      if (id) onDeleted(id);
    })
    .subscribe((status) => onStatus(status === 'SUBSCRIBED'));
  return () => void db.removeChannel(channel);
}
`;

const GUESTBOOK_TSX = `import { useEffect, useState, type FormEvent } from 'react';
import type { Session } from '@supabase/supabase-js';
import { AuthGate } from './AuthGate';
import { messageOf } from '../lib/supabase';
import { deleteEntry, listEntries, signGuestbook, watchEntries, type Entry } from '../data/guestbook';
import '../data.css';

/** Newest first, each entry once (the live copy and the one just written may both arrive). */
function withEntry(entries: Entry[], entry: Entry): Entry[] {
  return [entry, ...entries.filter((e) => e.id !== entry.id)].sort((a, b) => b.created_at.localeCompare(a.created_at));
}

function Guestbook({ session }: { session: Session }) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [loading, setLoading] = useState(true);
  const [live, setLive] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [message, setMessage] = useState('');
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let open = true;
    const stop = watchEntries(
      (entry) => open && setEntries((current) => withEntry(current, entry)),
      (id) => open && setEntries((current) => current.filter((e) => e.id !== id)),
      (connected) => open && setLive(connected),
    );
    listEntries()
      .then((rows) => open && setEntries((current) => rows.reduce(withEntry, current)))
      .catch((e: unknown) => open && setError(messageOf(e)))
      .finally(() => open && setLoading(false));
    return () => {
      open = false;
      stop();
    };
  }, [session.user.id]);

  const sign = async (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '' || message.trim() === '') return;
    setSaving(true);
    setError(null);
    try {
      const entry = await signGuestbook(session.user.id, name, message);
      setEntries((current) => withEntry(current, entry));
      setMessage('');
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setSaving(false);
    }
  };

  const remove = async (entry: Entry) => {
    setError(null);
    try {
      await deleteEntry(entry.id);
      setEntries((current) => current.filter((e) => e.id !== entry.id));
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <div>
      <form className="data-form" onSubmit={(e) => void sign(e)}>
        <label>
          Your name
          <input value={name} required maxLength={80} autoComplete="name" onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Message
          <textarea rows={3} value={message} required maxLength={500} placeholder="Say hello" onChange={(e) => setMessage(e.target.value)} />
        </label>
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? 'Signing…' : 'Sign the guest book'}
        </button>
      </form>
      {error && <p className="data-error" role="alert">{error}</p>}
      <h3>Guest book</h3>
      <p className="data-status" aria-live="polite">{live ? 'Live: new entries appear as they are written.' : 'Connecting for live updates…'}</p>
      {loading ? (
        <p className="data-status" aria-live="polite">Loading the guest book…</p>
      ) : entries.length === 0 ? (
        <p className="data-status">No entries yet — be the first to sign.</p>
      ) : (
        <ul className="data-list" aria-label="Guest book entries">
          {entries.map((entry) => (
            <li key={entry.id} className="data-row">
              <span className="data-text">
                <strong>{entry.name}</strong>
                <span className="data-detail">{entry.message}</span>
              </span>
              <time className="data-detail" dateTime={entry.created_at}>{new Date(entry.created_at).toLocaleString()}</time>
              {entry.user_id === session.user.id && (
                <button type="button" className="link-button" onClick={() => void remove(entry)} aria-label={\`Delete the entry by \${entry.name}\`}>
                  Delete
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function LiveGuestbook() {
  return (
    <section id="guestbook" className="section">
      <div className="wrap">
        <AuthGate>{(session) => <Guestbook session={session} />}</AuthGate>
      </div>
    </section>
  );
}
`;

export const GUESTBOOK_APP: LiveApp = {
  live: 'guestbook',
  table: 'guestbook_entries',
  words: { app: 'live guest book', items: 'entries' },
  tagline: 'Sign the guest book and see every message as it arrives',
  migrationPath: GUESTBOOK_MIGRATION_PATH,
  migration: GUESTBOOK_MIGRATION_SQL,
};

export function guestbookBlueprint(): KindBlueprint {
  return {
    main: [{ name: 'LiveGuestbook', path: 'src/components/LiveGuestbook.tsx', content: GUESTBOOK_TSX }],
    support: {
      'src/lib/supabase.ts': SUPABASE_CLIENT_TS,
      'src/components/AuthGate.tsx': AUTH_GATE_TSX,
      'src/data/guestbook.ts': ENTRIES_TS,
      'src/data.css': DATA_CSS,
      [GUESTBOOK_MIGRATION_PATH]: GUESTBOOK_MIGRATION_SQL,
    },
    coreSections: [],
    hero: 'compact',
    links: [{ href: '#guestbook', label: 'Guest book' }],
    coreTask: {
      title: 'Build the live guest book with sign-in',
      description: `Sign-in with email and password; signed-in people sign the guest book and read everyone's entries, which appear in every open window as they are written (realtime postgres_changes; row-level security in migration ${GUESTBOOK_MIGRATION_PATH}).`,
    },
  };
}

// The data-backed apps the offline assistant builds when the project has a database: which table
// a request means, and the table's SQL migration (owner-only row-level security).
import type { AppKind } from '../intent.js';

export type DataTableName = 'todos' | 'notes' | 'habits' | 'bookings';

/** One table of a data-backed app and the words its screens use. */
export interface DataTable {
  readonly table: DataTableName;
  /** The row's TypeScript type. */
  readonly type: string;
  /** The main text column (required). */
  readonly text: { readonly column: string; readonly label: string; readonly placeholder: string };
  /** A second value entered with the row. */
  readonly detail: { readonly column: string; readonly sql: string; readonly label: string; readonly input: 'textarea' | 'datetime-local' };
  /** What "update" does: a yes/no switch, or a counter that goes up. */
  readonly flag: { readonly column: string; readonly kind: 'boolean' | 'counter'; readonly action: string; readonly undo?: string };
  /** The app described ("a task list"), the item words, and the main component's name. */
  readonly words: { readonly app: string; readonly item: string; readonly items: string; readonly heading: string; readonly empty: string };
  readonly component: string;
}

export const DATA_TABLES: Readonly<Record<DataTableName, DataTable>> = Object.freeze({
  todos: {
    table: 'todos',
    type: 'Todo',
    text: { column: 'title', label: 'New todo', placeholder: 'What needs doing?' },
    detail: { column: 'notes', sql: "text not null default ''", label: 'Notes (optional)', input: 'textarea' },
    flag: { column: 'done', kind: 'boolean', action: 'Mark done', undo: 'Mark not done' },
    words: { app: 'task list', item: 'todo', items: 'todos', heading: 'Your todos', empty: 'No todos yet — add the first one above.' },
    component: 'TodoBoard',
  },
  notes: {
    table: 'notes',
    type: 'Note',
    text: { column: 'title', label: 'Title', placeholder: 'A title for the note' },
    detail: { column: 'body', sql: "text not null default ''", label: 'Note', input: 'textarea' },
    flag: { column: 'pinned', kind: 'boolean', action: 'Pin', undo: 'Unpin' },
    words: { app: 'notes app', item: 'note', items: 'notes', heading: 'Your notes', empty: 'No notes yet — write the first one above.' },
    component: 'NoteBoard',
  },
  habits: {
    table: 'habits',
    type: 'Habit',
    text: { column: 'name', label: 'New habit', placeholder: 'e.g. Read for 20 minutes' },
    detail: { column: 'reason', sql: "text not null default ''", label: 'Why it matters (optional)', input: 'textarea' },
    flag: { column: 'streak', kind: 'counter', action: 'Done today' },
    words: { app: 'habit tracker', item: 'habit', items: 'habits', heading: 'Your habits', empty: 'No habits yet — add one to start a streak.' },
    component: 'HabitBoard',
  },
  bookings: {
    table: 'bookings',
    type: 'Booking',
    text: { column: 'title', label: 'What is it for?', placeholder: 'e.g. Haircut with Sam' },
    detail: { column: 'starts_at', sql: 'timestamptz not null default now()', label: 'When', input: 'datetime-local' },
    flag: { column: 'cancelled', kind: 'boolean', action: 'Cancel', undo: 'Restore' },
    words: { app: 'booking app', item: 'booking', items: 'bookings', heading: 'Your bookings', empty: 'No bookings yet — book the first slot above.' },
    component: 'BookingBoard',
  },
});

/** Words that ask for people's own data behind a sign-in, or for the database itself. */
const WANTS_ACCOUNTS =
  /\b(sign(s|ing)?[- ]?(in|up)|log(s|ging)?[- ]?in|login|accounts?|each (person|user|member)|every (person|user)|(their|his|her) own|per[- ]user|multi[- ]?user|database|supabase|backend|synced? across devices|saved? (in|to) the cloud)\b/i;
const BOOKING = /\b(bookings?|booking app|appointments?|reservations?|book(ing)? (a |an )?(slot|table|room|appointment|class))\b/i;
const TABLE_OF_KIND: Partial<Record<AppKind, DataTableName>> = { todo: 'todos', notes: 'notes', habits: 'habits' };

/**
 * The table a request wants behind a sign-in, or null: a todo list, notes app, habit tracker or
 * booking app whose words ask for accounts or a database ("each person signs in and sees only
 * their own todos"). A booking app is always data-backed: its bookings must outlive the browser.
 */
export function dataTableFor(prompt: string, kind: AppKind): DataTable | null {
  const booking = BOOKING.test(prompt);
  if (!booking && !WANTS_ACCOUNTS.test(prompt)) return null;
  const name = booking ? 'bookings' : TABLE_OF_KIND[kind];
  return name ? DATA_TABLES[name] : null;
}

/** Whether the words ask for accounts or a database at all (whatever the app). */
export function asksForAccounts(prompt: string): boolean {
  return WANTS_ACCOUNTS.test(prompt);
}

export const MIGRATION_PATH = (t: DataTable): string => `supabase/migrations/0001_${t.table}.sql`;

/** The table with its owner column, row-level security and one owner policy per command. */
export function migrationSql(t: DataTable): string {
  const flag = t.flag.kind === 'boolean' ? `${t.flag.column} boolean not null default false` : `${t.flag.column} integer not null default 0 check (${t.flag.column} >= 0)`;
  const owner = 'user_id = auth.uid()';
  return `-- ${t.words.app}: each signed-in person sees and changes only their own ${t.words.items}.
create table if not exists public.${t.table} (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  ${t.text.column} text not null check (length(${t.text.column}) between 1 and 500),
  ${t.detail.column} ${t.detail.sql},
  ${flag},
  created_at timestamptz not null default now()
);

create index if not exists ${t.table}_user_id_idx on public.${t.table} (user_id, created_at);

alter table public.${t.table} enable row level security;

drop policy if exists "${t.table}: owner reads" on public.${t.table};
create policy "${t.table}: owner reads" on public.${t.table} for select to authenticated using (${owner});
drop policy if exists "${t.table}: owner inserts" on public.${t.table};
create policy "${t.table}: owner inserts" on public.${t.table} for insert to authenticated with check (${owner});
drop policy if exists "${t.table}: owner updates" on public.${t.table};
create policy "${t.table}: owner updates" on public.${t.table} for update to authenticated using (${owner}) with check (${owner});
drop policy if exists "${t.table}: owner deletes" on public.${t.table};
create policy "${t.table}: owner deletes" on public.${t.table} for delete to authenticated using (${owner});

grant select, insert, update, delete on public.${t.table} to authenticated;
`;
}

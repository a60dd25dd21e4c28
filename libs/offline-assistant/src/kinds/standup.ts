// An async standup board: each person posts what they did, what they will do and what blocks
// them; updates are grouped by day, blockers stand out, kept in the browser.
import { kebabCase, str } from '../code.js';
import type { KindBlueprint, KindContext } from './kind.js';

function logic(storageKey: string): string {
  return `export interface Update {
  id: number;
  author: string;
  /** 'YYYY-MM-DD' in local time. */
  day: string;
  yesterday: string;
  today: string;
  blockers: string;
}

export interface Draft {
  author: string;
  yesterday: string;
  today: string;
  blockers: string;
}

export type DraftErrors = Partial<Record<keyof Draft, string>>;

const STORAGE_KEY = ${str(storageKey)};

export function dayKey(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return date.getFullYear() + '-' + pad(date.getMonth() + 1) + '-' + pad(date.getDate());
}

function daysAgo(today: Date, days: number): string {
  const date = new Date(today);
  date.setDate(date.getDate() - days);
  return dayKey(date);
}

export function starterUpdates(today: Date): Update[] {
  return [
    { id: 1, author: 'Maya', day: daysAgo(today, 0), yesterday: 'Finished the onboarding emails.', today: 'Pairing with Leo on the billing page.', blockers: '' },
    { id: 2, author: 'Leo', day: daysAgo(today, 0), yesterday: 'Reviewed two pull requests.', today: 'Billing page: plan switcher.', blockers: 'Waiting for the new price list from finance.' },
    { id: 3, author: 'Sam', day: daysAgo(today, 1), yesterday: 'Fixed the flaky login test.', today: 'Release notes for version 2.4.', blockers: '' },
  ];
}

export function loadUpdates(today: Date): Update[] {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    const parsed: unknown = saved ? JSON.parse(saved) : null;
    return Array.isArray(parsed) ? (parsed as Update[]) : starterUpdates(today);
  } catch {
    return starterUpdates(today);
  }
}

export function saveUpdates(updates: Update[]): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(updates));
  } catch {
    // Storage can be full or blocked; updates still show for this visit.
  }
}

export function validateDraft(draft: Draft): DraftErrors {
  const errors: DraftErrors = {};
  if (draft.author.trim().length < 2) errors.author = 'Please enter your name.';
  if (draft.today.trim().length < 3) errors.today = 'Say what you will work on today.';
  return errors;
}

export function postUpdate(updates: Update[], draft: Draft, today: Date): Update[] {
  const id = updates.reduce((max, update) => Math.max(max, update.id), 0) + 1;
  const clean = (text: string) => text.trim();
  return [{ id, day: dayKey(today), author: clean(draft.author), yesterday: clean(draft.yesterday), today: clean(draft.today), blockers: clean(draft.blockers) }, ...updates];
}

export function removeUpdate(updates: Update[], id: number): Update[] {
  return updates.filter((update) => update.id !== id);
}

/** Updates by day, newest day first; optionally only those with blockers, or by one person. */
export function updatesByDay(updates: Update[], options: { blockersOnly: boolean; query: string }): { day: string; updates: Update[] }[] {
  const q = options.query.trim().toLowerCase();
  const shown = updates.filter((u) => (!options.blockersOnly || u.blockers !== '') && (q === '' || u.author.toLowerCase().includes(q)));
  const days = [...new Set(shown.map((u) => u.day))].sort().reverse();
  return days.map((day) => ({ day, updates: shown.filter((u) => u.day === day) }));
}
`;
}

const COMPONENT = `import { useEffect, useState, type FormEvent } from 'react';
import { dayKey, loadUpdates, postUpdate, removeUpdate, saveUpdates, updatesByDay, validateDraft, type Draft, type DraftErrors } from '../standups';
import './Standups.css';

const emptyDraft: Draft = { author: '', yesterday: '', today: '', blockers: '' };

export function Standups() {
  const [now] = useState(() => new Date());
  const [updates, setUpdates] = useState(() => loadUpdates(now));
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [errors, setErrors] = useState<DraftErrors>({});
  const [blockersOnly, setBlockersOnly] = useState(false);
  const [query, setQuery] = useState('');

  useEffect(() => {
    saveUpdates(updates);
  }, [updates]);

  function update(field: keyof Draft, value: string) {
    setDraft((current) => ({ ...current, [field]: value }));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validateDraft(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setUpdates((current) => postUpdate(current, draft, now));
    setDraft({ ...emptyDraft, author: draft.author });
  }

  const groups = updatesByDay(updates, { blockersOnly, query });
  const todayKey = dayKey(now);
  const blocked = updates.filter((u) => u.day === todayKey && u.blockers !== '').length;

  return (
    <section className="section" id="standups">
      <div className="wrap standups">
        <form className="card form" onSubmit={submit} noValidate>
          <h2>Post your daily update</h2>
          <div className="field">
            <label htmlFor="standup-author">Your name</label>
            <input id="standup-author" className="input" value={draft.author} onChange={(e) => update('author', e.target.value)} aria-invalid={Boolean(errors.author)} />
            {errors.author && <span className="field-error">{errors.author}</span>}
          </div>
          <div className="field">
            <label htmlFor="standup-yesterday">Yesterday</label>
            <textarea id="standup-yesterday" className="input" rows={2} value={draft.yesterday} onChange={(e) => update('yesterday', e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="standup-today">Today</label>
            <textarea id="standup-today" className="input" rows={2} value={draft.today} onChange={(e) => update('today', e.target.value)} aria-invalid={Boolean(errors.today)} />
            {errors.today && <span className="field-error">{errors.today}</span>}
          </div>
          <div className="field">
            <label htmlFor="standup-blockers">Blockers</label>
            <textarea id="standup-blockers" className="input" rows={2} placeholder="Anything in your way? Leave empty if not." value={draft.blockers} onChange={(e) => update('blockers', e.target.value)} />
          </div>
          <button className="btn btn-primary" type="submit">
            Post update
          </button>
        </form>

        <div className="standup-feed">
          <div className="standup-toolbar">
            <label className="visually-hidden" htmlFor="standup-search">
              Filter by name
            </label>
            <input id="standup-search" className="input" type="search" placeholder="Filter by name…" value={query} onChange={(e) => setQuery(e.target.value)} />
            <button type="button" className="chip" aria-pressed={blockersOnly} onClick={() => setBlockersOnly((v) => !v)}>
              Only blockers
            </button>
          </div>
          <p className="muted">{blocked === 0 ? 'Nobody is blocked today.' : blocked + (blocked === 1 ? ' person is' : ' people are') + ' blocked today.'}</p>
          {groups.length === 0 ? (
            <p className="muted">No updates match.</p>
          ) : (
            groups.map((group) => (
              <div key={group.day} className="standup-day">
                <h3>{group.day === todayKey ? 'Today' : new Date(group.day + 'T12:00:00').toLocaleDateString(undefined, { weekday: 'long', month: 'short', day: 'numeric' })}</h3>
                {group.updates.map((u) => (
                  <article key={u.id} className={u.blockers ? 'card standup is-blocked' : 'card standup'}>
                    <header className="standup-head">
                      <strong>{u.author}</strong>
                      <button type="button" className="btn btn-ghost btn-small" aria-label={'Delete the update by ' + u.author} onClick={() => setUpdates((current) => removeUpdate(current, u.id))}>
                        ✕
                      </button>
                    </header>
                    {u.yesterday && (
                      <p>
                        <span className="muted">Yesterday:</span> {u.yesterday}
                      </p>
                    )}
                    <p>
                      <span className="muted">Today:</span> {u.today}
                    </p>
                    {u.blockers && (
                      <p className="standup-blocker">
                        <span className="badge">Blocker</span> {u.blockers}
                      </p>
                    )}
                  </article>
                ))}
              </div>
            ))
          )}
        </div>
      </div>
    </section>
  );
}
`;

const CSS = `.standups {
  display: grid;
  grid-template-columns: minmax(0, 22rem) minmax(0, 1fr);
  gap: 1.5rem;
  align-items: start;
}

.standup-toolbar {
  display: flex;
  gap: 0.75rem;
  align-items: center;
  flex-wrap: wrap;
}

.standup-toolbar .input {
  max-width: 18rem;
}

.standup-day {
  display: grid;
  gap: 0.75rem;
  margin-top: 1.25rem;
}

.standup-head {
  display: flex;
  justify-content: space-between;
  align-items: center;
}

.standup p {
  margin: 0.35rem 0 0;
}

.standup.is-blocked {
  border-color: color-mix(in srgb, var(--destructive, #dc2626) 45%, transparent);
}

.standup-blocker .badge {
  background: color-mix(in srgb, var(--destructive, #dc2626) 15%, transparent);
  color: var(--destructive, #dc2626);
}

@media (max-width: 760px) {
  .standups {
    grid-template-columns: 1fr;
  }
}
`;

export function standup({ spec }: KindContext): KindBlueprint {
  return {
    main: [{ name: 'Standups', path: 'src/components/Standups.tsx', content: COMPONENT }],
    support: { 'src/standups.ts': logic(`standups:${kebabCase(spec.name) || 'app'}`), 'src/components/Standups.css': CSS },
    coreSections: [],
    hero: 'compact',
    links: [{ href: '#standups', label: 'Updates' }],
    coreTask: {
      title: 'Build the standup board',
      description: 'Team members post daily updates (yesterday, today, blockers) with a validated form; updates are grouped by day, blockers stand out and can be filtered; kept in the browser.',
    },
  };
}

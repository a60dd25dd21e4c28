import { kebabCase, str } from '../code.js';
import type { KindBlueprint, KindContext } from './kind.js';

export function notes({ spec, topic }: KindContext): KindBlueprint {
  const samples = [
    { title: 'Welcome', body: `This is ${spec.name}. Write anything here — it is saved in your browser as you type.\n\nUse the search box to find notes by title or text.` },
    { title: 'Ideas', body: topic.features.map((f) => `• ${f.title}`).join('\n') },
    { title: 'To remember', body: topic.steps.map(([title, text], i) => `${i + 1}. ${title} — ${text}`).join('\n') },
  ];
  const logic = `export interface Note {
  id: number;
  title: string;
  body: string;
  /** Milliseconds since 1970 of the last change. */
  updated: number;
}

const STORAGE_KEY = ${str(`notes:${kebabCase(spec.name) || 'app'}`)};

const starterNotes: Note[] = [
${samples.map((n, i) => `  { id: ${i + 1}, title: ${str(n.title)}, body: ${str(n.body)}, updated: ${1735700000000 - i * 86_400_000} },`).join('\n')}
];

export function loadNotes(): Note[] {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    const parsed: unknown = saved ? JSON.parse(saved) : null;
    return Array.isArray(parsed) ? (parsed as Note[]) : starterNotes;
  } catch {
    return starterNotes;
  }
}

export function saveNotes(notes: Note[]): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(notes));
  } catch {
    // Storage can be full or blocked; notes still work for this visit.
  }
}

export function createNote(notes: Note[], now: number): { notes: Note[]; id: number } {
  const id = notes.reduce((max, note) => Math.max(max, note.id), 0) + 1;
  return { notes: [{ id, title: 'Untitled note', body: '', updated: now }, ...notes], id };
}

export function updateNote(notes: Note[], id: number, change: Partial<Pick<Note, 'title' | 'body'>>, now: number): Note[] {
  return notes.map((note) => (note.id === id ? { ...note, ...change, updated: now } : note));
}

export function deleteNote(notes: Note[], id: number): Note[] {
  return notes.filter((note) => note.id !== id);
}

export function searchNotes(notes: Note[], query: string): Note[] {
  const q = query.trim().toLowerCase();
  const sorted = [...notes].sort((a, b) => b.updated - a.updated);
  return q === '' ? sorted : sorted.filter((note) => (note.title + ' ' + note.body).toLowerCase().includes(q));
}
`;
  const component = `import { useEffect, useState } from 'react';
import { createNote, deleteNote, loadNotes, saveNotes, searchNotes, updateNote } from '../notes';
import './Notes.css';

export function Notes() {
  const [notes, setNotes] = useState(loadNotes);
  const [selectedId, setSelectedId] = useState<number | null>(() => notes[0]?.id ?? null);
  const [query, setQuery] = useState('');

  useEffect(() => {
    saveNotes(notes);
  }, [notes]);

  const shown = searchNotes(notes, query);
  const selected = notes.find((note) => note.id === selectedId) ?? null;

  function add() {
    const created = createNote(notes, Date.now());
    setNotes(created.notes);
    setSelectedId(created.id);
    setQuery('');
  }

  function remove(id: number) {
    const rest = deleteNote(notes, id);
    setNotes(rest);
    setSelectedId(rest[0]?.id ?? null);
  }

  return (
    <section className="section" id="notes">
      <div className="wrap notes-layout">
        <aside className="card notes-list">
          <div className="notes-list-head">
            <label className="visually-hidden" htmlFor="note-search">
              Search notes
            </label>
            <input id="note-search" className="input" type="search" placeholder="Search…" value={query} onChange={(event) => setQuery(event.target.value)} />
            <button type="button" className="btn btn-primary" onClick={add}>
              New
            </button>
          </div>
          {shown.length === 0 ? (
            <p className="muted notes-empty">No notes found.</p>
          ) : (
            <ul>
              {shown.map((note) => (
                <li key={note.id}>
                  <button type="button" className={note.id === selectedId ? 'note-link is-active' : 'note-link'} onClick={() => setSelectedId(note.id)}>
                    <strong>{note.title || 'Untitled note'}</strong>
                    <span className="muted">{note.body.split('\\n')[0] || 'No text yet'}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </aside>
        <div className="card note-editor">
          {selected ? (
            <>
              <label className="visually-hidden" htmlFor="note-title">
                Title
              </label>
              <input
                id="note-title"
                className="note-title"
                value={selected.title}
                onChange={(event) => setNotes((current) => updateNote(current, selected.id, { title: event.target.value }, Date.now()))}
              />
              <p className="muted note-meta">
                Edited {new Date(selected.updated).toLocaleString()} · {selected.body.length} characters
              </p>
              <label className="visually-hidden" htmlFor="note-body">
                Note
              </label>
              <textarea
                id="note-body"
                className="input note-body"
                value={selected.body}
                placeholder="Start writing…"
                onChange={(event) => setNotes((current) => updateNote(current, selected.id, { body: event.target.value }, Date.now()))}
              />
              <div className="note-actions">
                <button type="button" className="btn btn-danger btn-small" onClick={() => remove(selected.id)}>
                  Delete note
                </button>
              </div>
            </>
          ) : (
            <p className="muted">Select a note or create a new one.</p>
          )}
        </div>
      </div>
    </section>
  );
}
`;
  const css = `.notes-layout {
  display: grid;
  gap: 1.25rem;
  grid-template-columns: minmax(220px, 300px) 1fr;
  align-items: start;
}

.notes-list {
  padding: 1rem;
}

.notes-list-head {
  display: flex;
  gap: 0.5rem;
  margin-bottom: 0.75rem;
}

.notes-list-head .input {
  min-width: 0;
  flex: 1;
}

.notes-list ul {
  list-style: none;
  padding: 0;
  margin: 0;
  display: grid;
  gap: 0.25rem;
}

.note-link {
  width: 100%;
  text-align: left;
  display: grid;
  gap: 0.15rem;
  padding: 0.65rem 0.75rem;
  border: 0;
  border-radius: calc(var(--radius) * 0.6);
  background: transparent;
  cursor: pointer;
}

.note-link span {
  font-size: 0.85rem;
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
}

.note-link:hover {
  background: var(--muted);
}

.note-link.is-active {
  background: color-mix(in srgb, var(--primary) 12%, var(--card));
}

.notes-empty {
  padding: 1rem 0.5rem;
}

.note-editor {
  display: flex;
  flex-direction: column;
  min-height: 420px;
}

.note-title {
  border: 0;
  background: transparent;
  font-size: 1.5rem;
  font-weight: 700;
  padding: 0;
}

.note-title:focus {
  outline: none;
}

.note-meta {
  font-size: 0.85rem;
}

.note-body {
  flex: 1;
  min-height: 280px;
  resize: vertical;
  line-height: 1.7;
}

.note-actions {
  display: flex;
  justify-content: flex-end;
  margin-top: 0.75rem;
}

@media (max-width: 720px) {
  .notes-layout {
    grid-template-columns: minmax(0, 1fr);
  }
}
`;
  return {
    main: [{ name: 'Notes', path: 'src/components/Notes.tsx', content: component }],
    support: { 'src/notes.ts': logic, 'src/components/Notes.css': css },
    coreSections: [],
    hero: 'compact',
    links: [{ href: '#notes', label: 'Notes' }],
    coreTask: { title: 'Build the notes editor', description: 'A searchable list of notes and an editor; create, rename, edit and delete, saved in the browser.' },
  };
}

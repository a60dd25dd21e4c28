import { kebabCase, str } from '../code.js';
import type { KindBlueprint, KindContext } from './kind.js';

export function kanban({ spec, topic }: KindContext): KindBlueprint {
  const cards = [
    ...topic.features.slice(0, 3).map((f) => ({ title: f.title, column: 'todo' })),
    ...topic.features.slice(3, 5).map((f) => ({ title: f.title, column: 'doing' })),
    ...topic.steps.slice(0, 2).map(([title]) => ({ title, column: 'done' })),
  ];
  const logic = `export type ColumnId = 'todo' | 'doing' | 'done';

export interface Card {
  id: number;
  title: string;
  column: ColumnId;
}

export const columns: { id: ColumnId; title: string }[] = [
  { id: 'todo', title: 'To do' },
  { id: 'doing', title: 'In progress' },
  { id: 'done', title: 'Done' },
];

const STORAGE_KEY = ${str(`board:${kebabCase(spec.name) || 'app'}`)};

const starterCards: Card[] = [
${cards.map((c, i) => `  { id: ${i + 1}, title: ${str(c.title)}, column: '${c.column}' },`).join('\n')}
];

export function loadCards(): Card[] {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    const parsed: unknown = saved ? JSON.parse(saved) : null;
    return Array.isArray(parsed) ? (parsed as Card[]) : starterCards;
  } catch {
    return starterCards;
  }
}

export function saveCards(cards: Card[]): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(cards));
  } catch {
    // Storage can be full or blocked; the board still works for this visit.
  }
}

export function addCard(cards: Card[], title: string, column: ColumnId): Card[] {
  const trimmed = title.trim();
  if (trimmed === '') return cards;
  const id = cards.reduce((max, card) => Math.max(max, card.id), 0) + 1;
  return [...cards, { id, title: trimmed, column }];
}

export function moveCard(cards: Card[], id: number, column: ColumnId): Card[] {
  return cards.map((card) => (card.id === id ? { ...card, column } : card));
}

export function removeCard(cards: Card[], id: number): Card[] {
  return cards.filter((card) => card.id !== id);
}

/** The column before or after, if there is one. */
export function neighbour(column: ColumnId, step: -1 | 1): ColumnId | null {
  const index = columns.findIndex((c) => c.id === column) + step;
  return columns[index]?.id ?? null;
}
`;
  const component = `import { useEffect, useState, type DragEvent, type FormEvent } from 'react';
import { addCard, columns, loadCards, moveCard, neighbour, removeCard, saveCards, type ColumnId } from '../board';
import './Board.css';

export function Board() {
  const [cards, setCards] = useState(loadCards);
  const [title, setTitle] = useState('');
  const [over, setOver] = useState<ColumnId | null>(null);

  useEffect(() => {
    saveCards(cards);
  }, [cards]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setCards((current) => addCard(current, title, 'todo'));
    setTitle('');
  }

  function drop(event: DragEvent<HTMLElement>, column: ColumnId) {
    event.preventDefault();
    const id = Number(event.dataTransfer.getData('text/plain'));
    if (Number.isFinite(id)) setCards((current) => moveCard(current, id, column));
    setOver(null);
  }

  return (
    <section className="section" id="board">
      <div className="wrap">
        <form className="inline-form board-form" onSubmit={submit}>
          <label className="visually-hidden" htmlFor="new-card">
            New card
          </label>
          <input id="new-card" className="input" placeholder="Add a card to To do…" value={title} onChange={(event) => setTitle(event.target.value)} />
          <button className="btn btn-primary" type="submit" disabled={title.trim() === ''}>
            Add card
          </button>
        </form>
        <div className="board">
          {columns.map((column) => {
            const inColumn = cards.filter((card) => card.column === column.id);
            return (
              <section
                key={column.id}
                className={over === column.id ? 'board-column is-over' : 'board-column'}
                aria-label={column.title}
                onDragOver={(event) => {
                  event.preventDefault();
                  setOver(column.id);
                }}
                onDragLeave={() => setOver(null)}
                onDrop={(event) => drop(event, column.id)}
              >
                <header className="board-column-head">
                  <h3>{column.title}</h3>
                  <span className="badge">{inColumn.length}</span>
                </header>
                <ul>
                  {inColumn.map((card) => {
                    const left = neighbour(card.column, -1);
                    const right = neighbour(card.column, 1);
                    return (
                      <li key={card.id} className="board-card" draggable onDragStart={(event) => event.dataTransfer.setData('text/plain', String(card.id))}>
                        <span>{card.title}</span>
                        <div className="board-card-actions">
                          <button type="button" className="btn btn-ghost btn-small" disabled={left === null} aria-label={'Move ' + card.title + ' left'} onClick={() => left && setCards((current) => moveCard(current, card.id, left))}>
                            ←
                          </button>
                          <button type="button" className="btn btn-ghost btn-small" disabled={right === null} aria-label={'Move ' + card.title + ' right'} onClick={() => right && setCards((current) => moveCard(current, card.id, right))}>
                            →
                          </button>
                          <button type="button" className="btn btn-danger btn-small" aria-label={'Delete ' + card.title} onClick={() => setCards((current) => removeCard(current, card.id))}>
                            ✕
                          </button>
                        </div>
                      </li>
                    );
                  })}
                </ul>
                {inColumn.length === 0 && <p className="muted board-empty">Drop cards here</p>}
              </section>
            );
          })}
        </div>
      </div>
    </section>
  );
}
`;
  const css = `.board-form {
  margin-bottom: 1.25rem;
  max-width: 36rem;
}

.board {
  display: grid;
  gap: 1rem;
  grid-template-columns: repeat(3, minmax(0, 1fr));
  align-items: start;
}

.board-column {
  background: var(--muted);
  border: 2px dashed transparent;
  border-radius: var(--radius);
  padding: 1rem;
  min-height: 12rem;
}

.board-column.is-over {
  border-color: var(--primary);
}

.board-column-head {
  display: flex;
  justify-content: space-between;
  align-items: center;
  margin-bottom: 0.75rem;
}

.board-column-head h3 {
  margin: 0;
  font-size: 1rem;
}

.board-column ul {
  list-style: none;
  padding: 0;
  margin: 0;
  display: grid;
  gap: 0.6rem;
}

.board-card {
  background: var(--card);
  border: 1px solid var(--border);
  border-radius: calc(var(--radius) * 0.75);
  padding: 0.75rem;
  display: grid;
  gap: 0.5rem;
  cursor: grab;
  box-shadow: 0 1px 2px rgb(15 23 42 / 0.05);
}

.board-card-actions {
  display: flex;
  gap: 0.35rem;
  justify-content: flex-end;
}

.board-empty {
  text-align: center;
  font-size: 0.9rem;
  padding: 1rem 0;
}

@media (max-width: 760px) {
  .board {
    grid-template-columns: minmax(0, 1fr);
  }
}
`;
  return {
    main: [{ name: 'Board', path: 'src/components/Board.tsx', content: component }],
    support: { 'src/board.ts': logic, 'src/components/Board.css': css },
    coreSections: [],
    hero: 'compact',
    links: [{ href: '#board', label: 'Board' }],
    coreTask: { title: 'Build the board', description: 'Three columns (To do, In progress, Done); add, move (buttons or drag and drop) and delete cards, saved in the browser.' },
  };
}

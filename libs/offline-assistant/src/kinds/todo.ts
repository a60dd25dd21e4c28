import { kebabCase, str } from '../code.js';
import type { KindBlueprint, KindContext } from './kind.js';

const SAMPLE_TASKS: Readonly<Record<string, readonly string[]>> = {
  coffee: ['Order oat milk', 'Clean the grinder', 'Post this week’s roast'],
  food: ['Check the fish delivery', 'Prep the sourdough', 'Update the specials board'],
  fitness: ['Book Thursday’s class', 'Log today’s run', 'Stretch for 10 minutes'],
  software: ['Review the open pull requests', 'Write release notes', 'Plan the next sprint'],
  creative: ['Send the client moodboard', 'Edit Saturday’s shoot', 'Update the portfolio'],
  travel: ['Renew the passport', 'Book the train to Porto', 'Pack the rain jacket'],
  education: ['Finish chapter 3', 'Practise vocabulary for 15 minutes', 'Email the study group'],
  generic: ['Buy groceries', 'Call the dentist', 'Go for a walk'],
};

/** The words of a list of things to do, or of things to buy ("a shopping list"). */
const TASK_WORDS = { item: 'task', items: 'tasks', add: 'Add task', placeholder: 'What needs doing?', label: 'New task', link: 'Tasks', title: 'Build the task list', what: 'tasks' };
const SHOPPING_WORDS = { item: 'item', items: 'items', add: 'Add item', placeholder: 'What do you need to buy?', label: 'New item', link: 'Shopping list', title: 'Build the shopping list', what: 'items to buy' };
const SHOPPING = /\b(shopping|grocer(y|ies)|groceries list|packing list)\b/i;

export function todo({ spec, topic, prompt }: KindContext): KindBlueprint {
  const shopping = SHOPPING.test(prompt);
  const w = shopping ? SHOPPING_WORDS : TASK_WORDS;
  const samples = shopping ? ['Oat milk', 'Six free-range eggs', 'Ripe tomatoes', 'Sourdough loaf'] : (SAMPLE_TASKS[topic.id] ?? (SAMPLE_TASKS['generic'] as readonly string[]));
  const key = `todos:${kebabCase(spec.name) || 'app'}`;
  const todos = `export interface Todo {
  id: number;
  text: string;
  done: boolean;
}

export type Filter = 'all' | 'active' | 'done';

const STORAGE_KEY = ${str(key)};

export const starterTodos: Todo[] = [
${samples.map((text, i) => `  { id: ${i + 1}, text: ${str(text)}, done: ${i === 0} },`).join('\n')}
];

export function loadTodos(): Todo[] {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (!saved) return starterTodos;
    const parsed: unknown = JSON.parse(saved);
    return Array.isArray(parsed) ? (parsed as Todo[]) : starterTodos;
  } catch {
    return starterTodos;
  }
}

export function saveTodos(todos: Todo[]): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(todos));
  } catch {
    // Storage can be full or blocked; the list still works for this visit.
  }
}

export function addTodo(todos: Todo[], text: string): Todo[] {
  const trimmed = text.trim();
  if (trimmed === '') return todos;
  const id = todos.reduce((max, todo) => Math.max(max, todo.id), 0) + 1;
  return [...todos, { id, text: trimmed, done: false }];
}

export function toggleTodo(todos: Todo[], id: number): Todo[] {
  return todos.map((todo) => (todo.id === id ? { ...todo, done: !todo.done } : todo));
}

export function removeTodo(todos: Todo[], id: number): Todo[] {
  return todos.filter((todo) => todo.id !== id);
}

export function clearDone(todos: Todo[]): Todo[] {
  return todos.filter((todo) => !todo.done);
}

export function visibleTodos(todos: Todo[], filter: Filter): Todo[] {
  if (filter === 'active') return todos.filter((todo) => !todo.done);
  if (filter === 'done') return todos.filter((todo) => todo.done);
  return todos;
}
`;
  const component = `import { useEffect, useState, type FormEvent } from 'react';
import { addTodo, clearDone, loadTodos, removeTodo, saveTodos, toggleTodo, visibleTodos, type Filter } from '../todos';
import './TodoList.css';

const filters: { id: Filter; label: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'active', label: 'Active' },
  { id: 'done', label: 'Done' },
];

export function TodoList() {
  const [todos, setTodos] = useState(loadTodos);
  const [text, setText] = useState('');
  const [filter, setFilter] = useState<Filter>('all');

  useEffect(() => {
    saveTodos(todos);
  }, [todos]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTodos((current) => addTodo(current, text));
    setText('');
  }

  const shown = visibleTodos(todos, filter);
  const left = todos.filter((todo) => !todo.done).length;

  return (
    <section className="section" id="todos">
      <div className="wrap">
        <div className="card todo-card">
          <form className="inline-form" onSubmit={submit}>
            <label className="visually-hidden" htmlFor="new-todo">
              ${w.label}
            </label>
            <input id="new-todo" className="input" placeholder="${w.placeholder}" value={text} onChange={(event) => setText(event.target.value)} />
            <button className="btn btn-primary" type="submit" disabled={text.trim() === ''}>
              ${w.add}
            </button>
          </form>
          <div className="chips todo-filters" role="group" aria-label="Show">
            {filters.map((f) => (
              <button key={f.id} type="button" className="chip" aria-pressed={filter === f.id} onClick={() => setFilter(f.id)}>
                {f.label}
              </button>
            ))}
          </div>
          {shown.length === 0 ? (
            <p className="muted todo-empty">Nothing here. Enjoy the calm!</p>
          ) : (
            <ul className="todo-list">
              {shown.map((todo) => (
                <li key={todo.id} className={todo.done ? 'todo-item is-done' : 'todo-item'}>
                  <label>
                    <input type="checkbox" checked={todo.done} onChange={() => setTodos((current) => toggleTodo(current, todo.id))} />
                    <span>{todo.text}</span>
                  </label>
                  <button type="button" className="btn btn-ghost btn-small" aria-label={'Delete ' + todo.text} onClick={() => setTodos((current) => removeTodo(current, todo.id))}>
                    ✕
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div className="todo-footer">
            <span className="muted">
              {left} {left === 1 ? '${w.item}' : '${w.items}'} left
            </span>
            <button type="button" className="btn btn-ghost btn-small" onClick={() => setTodos(clearDone)} disabled={todos.every((todo) => !todo.done)}>
              Clear completed
            </button>
          </div>
        </div>
      </div>
    </section>
  );
}
`;
  const css = `.todo-card {
  max-width: 40rem;
  margin-inline: auto;
}

.todo-filters {
  margin: 1.25rem 0 0.5rem;
}

.todo-list {
  list-style: none;
  padding: 0;
  margin: 0;
}

.todo-item {
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 0.75rem;
  padding: 0.75rem 0;
  border-bottom: 1px solid var(--border);
}

.todo-item label {
  display: flex;
  align-items: center;
  gap: 0.75rem;
  cursor: pointer;
  flex: 1;
}

.todo-item input[type='checkbox'] {
  width: 1.15rem;
  height: 1.15rem;
  accent-color: var(--primary);
}

.todo-item.is-done span {
  color: var(--muted-foreground);
  text-decoration: line-through;
}

.todo-empty {
  padding: 1.5rem 0;
  text-align: center;
}

.todo-footer {
  display: flex;
  justify-content: space-between;
  align-items: center;
  margin-top: 1rem;
}
`;
  return {
    main: [{ name: 'TodoList', path: 'src/components/TodoList.tsx', content: component }],
    support: { 'src/todos.ts': todos, 'src/components/TodoList.css': css },
    coreSections: [],
    hero: 'compact',
    links: [{ href: '#todos', label: w.link }],
    coreTask: { title: w.title, description: `Add, check off, filter and delete ${w.what}; they are kept in the browser between visits.` },
  };
}

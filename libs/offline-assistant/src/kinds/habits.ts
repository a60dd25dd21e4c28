// A habit tracker: habits with a daily check-off, a streak count each, a reminder time and a
// chart of the last seven days, kept in the browser.
import { kebabCase, str } from '../code.js';
import type { KindBlueprint, KindContext } from './kind.js';

const SAMPLE_HABITS: Readonly<Record<string, readonly (readonly [name: string, reminder: string])[]>> = {
  fitness: [
    ['Move for 30 minutes', '07:30'],
    ['Stretch before bed', '21:30'],
    ['Drink 2 litres of water', '12:00'],
  ],
  education: [
    ['Study for 25 minutes', '18:00'],
    ['Review flashcards', '08:00'],
    ['Read 10 pages', '21:00'],
  ],
  generic: [
    ['Read 10 pages', '21:00'],
    ['Walk 8,000 steps', '12:30'],
    ['Drink a glass of water first thing', '07:00'],
  ],
};

function logic(storageKey: string, samples: readonly (readonly [string, string])[]): string {
  return `export interface Habit {
  id: number;
  name: string;
  /** 'HH:MM' in the day when the reminder is due; '' for none. */
  reminder: string;
  /** Days checked off, as 'YYYY-MM-DD' in local time. */
  done: string[];
}

const STORAGE_KEY = ${str(storageKey)};

/** 'YYYY-MM-DD' of a date in local time. */
export function dayKey(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return date.getFullYear() + '-' + pad(date.getMonth() + 1) + '-' + pad(date.getDate());
}

export function addDays(date: Date, days: number): Date {
  const next = new Date(date);
  next.setDate(next.getDate() + days);
  return next;
}

/** The last \`count\` days, oldest first, ending today. */
export function lastDays(today: Date, count: number): Date[] {
  return Array.from({ length: count }, (_, i) => addDays(today, i - count + 1));
}

/** Sample habits, checked off on a few recent days so streaks show from the start. */
export function starterHabits(today: Date): Habit[] {
  const names: [string, string][] = [
${samples.map(([name, reminder]) => `    [${str(name)}, ${str(reminder)}],`).join('\n')}
  ];
  return names.map(([name, reminder], i) => ({
    id: i + 1,
    name,
    reminder,
    done: lastDays(addDays(today, -1), 5 - i * 2).map(dayKey),
  }));
}

export function loadHabits(today: Date): Habit[] {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    const parsed: unknown = saved ? JSON.parse(saved) : null;
    return Array.isArray(parsed) ? (parsed as Habit[]) : starterHabits(today);
  } catch {
    return starterHabits(today);
  }
}

export function saveHabits(habits: Habit[]): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(habits));
  } catch {
    // Storage can be full or blocked; habits still work for this visit.
  }
}

export function addHabit(habits: Habit[], name: string, reminder: string): Habit[] {
  const trimmed = name.trim();
  if (trimmed === '') return habits;
  const id = habits.reduce((max, habit) => Math.max(max, habit.id), 0) + 1;
  return [...habits, { id, name: trimmed, reminder, done: [] }];
}

export function removeHabit(habits: Habit[], id: number): Habit[] {
  return habits.filter((habit) => habit.id !== id);
}

/** Checks a habit off for a day, or un-checks it. */
export function toggleDay(habits: Habit[], id: number, day: string): Habit[] {
  return habits.map((habit) =>
    habit.id !== id ? habit : { ...habit, done: habit.done.includes(day) ? habit.done.filter((d) => d !== day) : [...habit.done, day].sort() },
  );
}

/**
 * The streak: days in a row checked off, ending today — or yesterday, while today is still open.
 */
export function streak(habit: Habit, today: Date): number {
  const done = new Set(habit.done);
  let day = done.has(dayKey(today)) ? today : addDays(today, -1);
  let count = 0;
  while (done.has(dayKey(day))) {
    count += 1;
    day = addDays(day, -1);
  }
  return count;
}

export function bestStreak(habits: Habit[], today: Date): number {
  return habits.reduce((best, habit) => Math.max(best, streak(habit, today)), 0);
}

/** A reminder is due when its time has passed today and the habit is not checked off yet. */
export function reminderDue(habit: Habit, now: Date): boolean {
  if (habit.reminder === '' || habit.done.includes(dayKey(now))) return false;
  const [h, m] = habit.reminder.split(':').map(Number);
  return now.getHours() * 60 + now.getMinutes() >= (h ?? 0) * 60 + (m ?? 0);
}

/** How many habits were checked off on each of the last seven days (the weekly progress chart). */
export function weeklyProgress(habits: Habit[], today: Date): { day: string; label: string; done: number }[] {
  return lastDays(today, 7).map((date) => ({
    day: dayKey(date),
    label: date.toLocaleDateString(undefined, { weekday: 'short' }),
    done: habits.filter((habit) => habit.done.includes(dayKey(date))).length,
  }));
}
`;
}

const COMPONENT = `import { useEffect, useState, type FormEvent } from 'react';
import { addHabit, bestStreak, dayKey, lastDays, loadHabits, reminderDue, removeHabit, saveHabits, streak, toggleDay, weeklyProgress } from '../habits';
import './Habits.css';

export function Habits() {
  const [today] = useState(() => new Date());
  const [habits, setHabits] = useState(() => loadHabits(today));
  const [name, setName] = useState('');
  const [reminder, setReminder] = useState('08:00');
  const [error, setError] = useState('');

  useEffect(() => {
    saveHabits(habits);
  }, [habits]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (name.trim().length < 2) {
      setError('Give the habit a name of at least 2 characters.');
      return;
    }
    setHabits((current) => addHabit(current, name, reminder));
    setName('');
    setError('');
  }

  const todayKey = dayKey(today);
  const week = lastDays(today, 7);
  const progress = weeklyProgress(habits, today);
  const doneToday = habits.filter((habit) => habit.done.includes(todayKey)).length;

  return (
    <section className="section" id="habits">
      <div className="wrap habits">
        <div className="habit-summary">
          <div className="card">
            <span className="muted">Done today</span>
            <strong className="stat-value">
              {doneToday}/{habits.length}
            </strong>
          </div>
          <div className="card">
            <span className="muted">Best streak</span>
            <strong className="stat-value">🔥 {bestStreak(habits, today)} days</strong>
          </div>
        </div>

        <form className="card habit-form" onSubmit={submit} noValidate>
          <div className="field">
            <label htmlFor="habit-name">New habit</label>
            <input id="habit-name" className="input" placeholder="e.g. Meditate for 10 minutes" value={name} onChange={(event) => setName(event.target.value)} aria-invalid={error !== ''} aria-describedby="habit-error" />
          </div>
          <div className="field">
            <label htmlFor="habit-reminder">Reminder</label>
            <input id="habit-reminder" className="input" type="time" value={reminder} onChange={(event) => setReminder(event.target.value)} />
          </div>
          <button className="btn btn-primary" type="submit">
            Add habit
          </button>
          <span id="habit-error" className="field-error" role="alert">
            {error}
          </span>
        </form>

        {habits.length === 0 ? (
          <p className="muted">No habits yet. Add the first one above.</p>
        ) : (
          <ul className="habit-list">
            {habits.map((habit) => {
              const checked = habit.done.includes(todayKey);
              const days = streak(habit, today);
              return (
                <li key={habit.id} className="card habit">
                  <label className="habit-check">
                    <input type="checkbox" checked={checked} onChange={() => setHabits((current) => toggleDay(current, habit.id, todayKey))} />
                    <span>
                      <strong>{habit.name}</strong>
                      <span className="muted habit-meta">
                        {habit.reminder ? 'Reminder at ' + habit.reminder : 'No reminder'}
                        {reminderDue(habit, today) && <span className="badge habit-due">Due now</span>}
                      </span>
                    </span>
                  </label>
                  <span className="habit-streak" aria-label={days + '-day streak'}>
                    🔥 {days} {days === 1 ? 'day' : 'days'} streak
                  </span>
                  <div className="habit-week" aria-label="Last 7 days">
                    {week.map((date) => {
                      const key = dayKey(date);
                      const done = habit.done.includes(key);
                      return (
                        <button
                          key={key}
                          type="button"
                          className={done ? 'habit-day is-done' : 'habit-day'}
                          aria-pressed={done}
                          aria-label={habit.name + ' on ' + date.toLocaleDateString()}
                          onClick={() => setHabits((current) => toggleDay(current, habit.id, key))}
                        >
                          {date.toLocaleDateString(undefined, { weekday: 'narrow' })}
                        </button>
                      );
                    })}
                  </div>
                  <button type="button" className="btn btn-ghost btn-small" aria-label={'Delete ' + habit.name} onClick={() => setHabits((current) => removeHabit(current, habit.id))}>
                    ✕
                  </button>
                </li>
              );
            })}
          </ul>
        )}

        <div className="card">
          <h2>Weekly progress</h2>
          <div className="habit-chart" role="img" aria-label="Habits checked off on each of the last seven days">
            {progress.map((day) => (
              <div key={day.day} className="habit-bar">
                <span className="habit-bar-fill" style={{ height: (habits.length === 0 ? 0 : (day.done / habits.length) * 100) + '%' }} />
                <span className="muted">{day.label}</span>
              </div>
            ))}
          </div>
        </div>
      </div>
    </section>
  );
}
`;

const CSS = `.habits {
  display: grid;
  gap: 1.25rem;
  max-width: 48rem;
}

.habit-summary {
  display: grid;
  grid-template-columns: repeat(2, minmax(0, 1fr));
  gap: 1rem;
}

.habit-summary .card {
  display: grid;
  gap: 0.25rem;
}

.habit-form {
  display: grid;
  grid-template-columns: 1fr auto auto;
  align-items: end;
  gap: 0.75rem;
}

.habit-form .field-error {
  grid-column: 1 / -1;
}

.habit-list {
  list-style: none;
  padding: 0;
  margin: 0;
  display: grid;
  gap: 0.75rem;
}

.habit {
  display: grid;
  grid-template-columns: 1fr auto auto;
  align-items: center;
  gap: 0.75rem;
}

.habit-check {
  display: flex;
  align-items: center;
  gap: 0.75rem;
  cursor: pointer;
}

.habit-check input {
  width: 1.25rem;
  height: 1.25rem;
  accent-color: var(--primary);
}

.habit-meta {
  display: flex;
  gap: 0.5rem;
  align-items: center;
  font-size: 0.875rem;
}

.habit-streak {
  font-weight: 600;
  white-space: nowrap;
}

.habit-week {
  grid-column: 1 / -1;
  display: flex;
  gap: 0.35rem;
}

.habit-day {
  width: 2rem;
  height: 2rem;
  border-radius: 999px;
  border: 1px solid var(--border);
  background: transparent;
  cursor: pointer;
}

.habit-day.is-done {
  background: var(--primary);
  color: var(--primary-foreground);
  border-color: var(--primary);
}

.habit-chart {
  display: grid;
  grid-template-columns: repeat(7, 1fr);
  gap: 0.5rem;
  height: 10rem;
  align-items: end;
}

.habit-bar {
  display: grid;
  grid-template-rows: 1fr auto;
  height: 100%;
  text-align: center;
  gap: 0.25rem;
}

.habit-bar-fill {
  align-self: end;
  display: block;
  min-height: 4px;
  border-radius: 6px 6px 0 0;
  background: var(--primary);
}

@media (max-width: 640px) {
  .habit-form,
  .habit {
    grid-template-columns: 1fr;
  }
}
`;

export function habits({ spec, topic }: KindContext): KindBlueprint {
  const samples = SAMPLE_HABITS[topic.id] ?? (SAMPLE_HABITS['generic'] as readonly (readonly [string, string])[]);
  return {
    main: [{ name: 'Habits', path: 'src/components/Habits.tsx', content: COMPONENT }],
    support: { 'src/habits.ts': logic(`habits:${kebabCase(spec.name) || 'app'}`, samples), 'src/components/Habits.css': CSS },
    coreSections: [],
    hero: 'compact',
    links: [{ href: '#habits', label: 'Habits' }],
    coreTask: {
      title: 'Build the habit tracker',
      description: 'Habits with a daily check-off, a streak count each, a reminder time and a weekly progress chart; kept in the browser between visits.',
    },
  };
}

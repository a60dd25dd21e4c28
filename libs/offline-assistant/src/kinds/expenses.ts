import { kebabCase, str } from '../code.js';
import type { KindBlueprint, KindContext } from './kind.js';

export function expenses({ spec }: KindContext): KindBlueprint {
  const logic = `export const categories = ['Food', 'Transport', 'Home', 'Fun', 'Health', 'Other'] as const;
export type Category = (typeof categories)[number];

export interface Expense {
  id: number;
  description: string;
  /** Whole cents, so sums never drift. */
  cents: number;
  category: Category;
}

const STORAGE_KEY = ${str(`expenses:${kebabCase(spec.name) || 'app'}`)};

const starter: Expense[] = [
  { id: 1, description: 'Groceries', cents: 6420, category: 'Food' },
  { id: 2, description: 'Monthly transit pass', cents: 4900, category: 'Transport' },
  { id: 3, description: 'Electricity bill', cents: 7315, category: 'Home' },
  { id: 4, description: 'Cinema tickets', cents: 2400, category: 'Fun' },
];

export function loadExpenses(): Expense[] {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    const parsed: unknown = saved ? JSON.parse(saved) : null;
    return Array.isArray(parsed) ? (parsed as Expense[]) : starter;
  } catch {
    return starter;
  }
}

export function saveExpenses(expenses: Expense[]): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(expenses));
  } catch {
    // Storage can be full or blocked; the tracker still works for this visit.
  }
}

/** '12.50' → 1250; anything that is not a positive amount → null. */
export function parseAmount(text: string): number | null {
  const normalised = text.trim().replace(',', '.');
  if (!/^\\d+(\\.\\d{1,2})?$/.test(normalised)) return null;
  const cents = Math.round(Number(normalised) * 100);
  return cents > 0 ? cents : null;
}

export function formatMoney(cents: number): string {
  return (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
}

export function total(expenses: Expense[]): number {
  return expenses.reduce((sum, expense) => sum + expense.cents, 0);
}

export function totalsByCategory(expenses: Expense[]): { category: Category; cents: number }[] {
  return categories.map((category) => ({ category, cents: total(expenses.filter((e) => e.category === category)) })).filter((t) => t.cents > 0);
}

export type Limits = Record<Category, number>;

/** Monthly limits per category, in cents. */
export const defaultLimits: Limits = { Food: 40000, Transport: 12000, Home: 60000, Fun: 15000, Health: 10000, Other: 10000 };

const LIMITS_KEY = STORAGE_KEY + ':limits';

export function loadLimits(): Limits {
  try {
    const saved = localStorage.getItem(LIMITS_KEY);
    const parsed: unknown = saved ? JSON.parse(saved) : null;
    return parsed && typeof parsed === 'object' ? { ...defaultLimits, ...(parsed as Partial<Limits>) } : defaultLimits;
  } catch {
    return defaultLimits;
  }
}

export function saveLimits(limits: Limits): void {
  try {
    localStorage.setItem(LIMITS_KEY, JSON.stringify(limits));
  } catch {
    // Storage can be full or blocked; the limits still apply for this visit.
  }
}

/** Spending against each category's monthly limit (every category, spent or not). */
export function spendingAgainstLimits(expenses: Expense[], limits: Limits): { category: Category; cents: number; limit: number; over: boolean }[] {
  return categories.map((category) => {
    const cents = total(expenses.filter((e) => e.category === category));
    return { category, cents, limit: limits[category], over: cents > limits[category] };
  });
}
`;
  const component = `import { useEffect, useState, type FormEvent } from 'react';
import { categories, formatMoney, loadExpenses, loadLimits, parseAmount, saveExpenses, saveLimits, spendingAgainstLimits, total, type Category } from '../expenses';
import './Expenses.css';

const BUDGET_CENTS = 150000;

export function Expenses() {
  const [expenses, setExpenses] = useState(loadExpenses);
  const [description, setDescription] = useState('');
  const [amount, setAmount] = useState('');
  const [category, setCategory] = useState<Category>('Food');
  const [error, setError] = useState('');
  const [limits, setLimits] = useState(loadLimits);

  useEffect(() => {
    saveExpenses(expenses);
  }, [expenses]);

  useEffect(() => {
    saveLimits(limits);
  }, [limits]);

  function setLimit(category: Category, text: string) {
    const cents = parseAmount(text);
    if (cents !== null) setLimits((current) => ({ ...current, [category]: cents }));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const cents = parseAmount(amount);
    if (description.trim() === '') return setError('Please describe the expense.');
    if (cents === null) return setError('Please enter an amount like 12.50.');
    setError('');
    setExpenses((current) => [{ id: current.reduce((max, e) => Math.max(max, e.id), 0) + 1, description: description.trim(), cents, category }, ...current]);
    setDescription('');
    setAmount('');
  }

  const spent = total(expenses);
  const used = Math.min(100, Math.round((spent / BUDGET_CENTS) * 100));
  const byCategory = spendingAgainstLimits(expenses, limits);
  const overLimit = byCategory.filter((t) => t.over).length;

  return (
    <section className="section" id="expenses">
      <div className="wrap expenses-layout">
        <div className="card">
          <h3>Add an expense</h3>
          <form className="form" onSubmit={submit} noValidate>
            <div className="field">
              <label htmlFor="expense-description">Description</label>
              <input id="expense-description" className="input" value={description} onChange={(e) => setDescription(e.target.value)} placeholder="Coffee with Sam" />
            </div>
            <div className="field-pair">
              <div className="field">
                <label htmlFor="expense-amount">Amount (USD)</label>
                <input id="expense-amount" className="input" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} placeholder="4.50" />
              </div>
              <div className="field">
                <label htmlFor="expense-category">Category</label>
                <select id="expense-category" className="input" value={category} onChange={(e) => setCategory(e.target.value as Category)}>
                  {categories.map((c) => (
                    <option key={c}>{c}</option>
                  ))}
                </select>
              </div>
            </div>
            {error && (
              <span className="field-error" role="alert">
                {error}
              </span>
            )}
            <button className="btn btn-primary" type="submit">
              Add expense
            </button>
          </form>
        </div>
        <div className="card">
          <h3>This month</h3>
          <p className="spent">{formatMoney(spent)}</p>
          <p className="muted">
            of {formatMoney(BUDGET_CENTS)} budget · {used}% used
          </p>
          <div className="budget-bar" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={used} aria-label="Budget used">
            <span style={{ width: used + '%' }} className={used >= 90 ? 'over' : undefined} />
          </div>
          <h3>Spending by category</h3>
          <p className="muted">{overLimit === 0 ? 'Every category is within its monthly limit.' : overLimit + (overLimit === 1 ? ' category is' : ' categories are') + ' over the monthly limit.'}</p>
          <ul className="category-bars" aria-label="Spending chart by category">
            {byCategory.map((t) => (
              <li key={t.category}>
                <span>{t.category}</span>
                <span className="category-track">
                  <span style={{ width: Math.min(100, (t.cents / Math.max(1, t.limit)) * 100) + '%' }} className={t.over ? 'over' : undefined} />
                </span>
                <strong>
                  {formatMoney(t.cents)} / {formatMoney(t.limit)}
                </strong>
              </li>
            ))}
          </ul>
          <details className="limits">
            <summary>Monthly limits</summary>
            {categories.map((c) => (
              <div className="field" key={c}>
                <label htmlFor={'limit-' + c}>{c} (USD)</label>
                <input id={'limit-' + c} className="input" inputMode="decimal" defaultValue={(limits[c] / 100).toFixed(2)} onBlur={(e) => setLimit(c, e.target.value)} />
              </div>
            ))}
          </details>
        </div>
        <div className="card expenses-list">
          <h3>Expenses</h3>
          {expenses.length === 0 ? (
            <p className="muted">No expenses yet.</p>
          ) : (
            <div className="table-wrap">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Description</th>
                    <th scope="col">Category</th>
                    <th scope="col">Amount</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {expenses.map((expense) => (
                    <tr key={expense.id}>
                      <td>{expense.description}</td>
                      <td>
                        <span className="badge">{expense.category}</span>
                      </td>
                      <td>{formatMoney(expense.cents)}</td>
                      <td>
                        <button type="button" className="btn btn-ghost btn-small" aria-label={'Delete ' + expense.description} onClick={() => setExpenses((current) => current.filter((e) => e.id !== expense.id))}>
                          ✕
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
`;
  const css = `.category-track .over {
  background: var(--destructive, #dc2626);
}

.limits {
  margin-top: 1rem;
  display: grid;
  gap: 0.5rem;
}

.limits summary {
  cursor: pointer;
  font-weight: 600;
}

.expenses-layout {
  display: grid;
  gap: 1.25rem;
  grid-template-columns: repeat(auto-fit, minmax(min(300px, 100%), 1fr));
  align-items: start;
}

.expenses-layout > * {
  min-width: 0;
}

.expenses-list {
  grid-column: 1 / -1;
}

.field-pair {
  display: grid;
  gap: 1rem;
  grid-template-columns: repeat(2, minmax(0, 1fr));
}

.spent {
  font-size: 2.25rem;
  font-weight: 800;
  letter-spacing: -0.03em;
  margin: 0;
}

.budget-bar,
.category-track {
  display: block;
  height: 8px;
  border-radius: 999px;
  background: var(--muted);
  overflow: hidden;
}

.budget-bar span,
.category-track span {
  display: block;
  height: 100%;
  background: var(--primary);
  border-radius: 999px;
}

.budget-bar .over {
  background: var(--destructive);
}

.category-bars {
  list-style: none;
  padding: 0;
  margin: 1.5rem 0 0;
  display: grid;
  gap: 0.75rem;
}

.category-bars li {
  display: grid;
  grid-template-columns: 5.5rem 1fr auto;
  gap: 0.75rem;
  align-items: center;
  font-size: 0.92rem;
}
`;
  return {
    main: [{ name: 'Expenses', path: 'src/components/Expenses.tsx', content: component }],
    support: { 'src/expenses.ts': logic, 'src/components/Expenses.css': css },
    coreSections: [],
    hero: 'compact',
    links: [{ href: '#expenses', label: 'Expenses' }],
    coreTask: { title: 'Build the expense tracker', description: 'Add and delete expenses (amounts in cents), a monthly budget bar, a spending chart per category against monthly limits you can set, saved in the browser.' },
  };
}

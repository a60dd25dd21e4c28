import type { KindBlueprint } from './kind.js';

const LOGIC = `export type Operator = '+' | '−' | '×' | '÷';

export interface CalculatorState {
  display: string;
  stored: number | null;
  operator: Operator | null;
  /** The next digit starts a new number. */
  waiting: boolean;
}

export const initialState: CalculatorState = { display: '0', stored: null, operator: null, waiting: false };

const MAX_DIGITS = 12;

export function compute(a: number, b: number, operator: Operator): number {
  switch (operator) {
    case '+':
      return a + b;
    case '−':
      return a - b;
    case '×':
      return a * b;
    case '÷':
      return b === 0 ? Number.NaN : a / b;
  }
}

export function format(value: number): string {
  if (!Number.isFinite(value)) return 'Error';
  const rounded = Math.round(value * 1e10) / 1e10;
  const text = String(rounded);
  return text.replace('-', '').replace('.', '').length > MAX_DIGITS ? rounded.toExponential(6) : text;
}

function inputDigit(state: CalculatorState, digit: string): CalculatorState {
  if (state.waiting || state.display === '0' || state.display === 'Error') return { ...state, display: digit, waiting: false };
  if (state.display.replace(/[-.]/g, '').length >= MAX_DIGITS) return state;
  return { ...state, display: state.display + digit };
}

function inputDot(state: CalculatorState): CalculatorState {
  if (state.waiting || state.display === 'Error') return { ...state, display: '0.', waiting: false };
  if (state.display.includes('.')) return state;
  return { ...state, display: state.display + '.' };
}

function chooseOperator(state: CalculatorState, operator: Operator): CalculatorState {
  if (state.display === 'Error') return state;
  const value = Number(state.display);
  if (state.operator !== null && state.stored !== null && !state.waiting) {
    const result = compute(state.stored, value, state.operator);
    if (!Number.isFinite(result)) return { ...initialState, display: 'Error' };
    return { display: format(result), stored: result, operator, waiting: true };
  }
  return { ...state, stored: value, operator, waiting: true };
}

function equals(state: CalculatorState): CalculatorState {
  if (state.operator === null || state.stored === null) return state;
  const result = compute(state.stored, Number(state.display), state.operator);
  return { display: format(result), stored: null, operator: null, waiting: true };
}

function toggleSign(state: CalculatorState): CalculatorState {
  if (state.display === '0' || state.display === 'Error') return state;
  return { ...state, display: state.display.startsWith('-') ? state.display.slice(1) : '-' + state.display };
}

function percent(state: CalculatorState): CalculatorState {
  if (state.display === 'Error') return state;
  return { ...state, display: format(Number(state.display) / 100), waiting: true };
}

function backspace(state: CalculatorState): CalculatorState {
  if (state.waiting || state.display === 'Error') return state;
  const next = state.display.slice(0, -1);
  return { ...state, display: next === '' || next === '-' ? '0' : next };
}

/** One key press: digits, '.', operators, '=', 'C', '±', '%' or '⌫'. */
export function pressKey(state: CalculatorState, key: string): CalculatorState {
  if (/^[0-9]$/.test(key)) return inputDigit(state, key);
  switch (key) {
    case '.':
      return inputDot(state);
    case '+':
    case '−':
    case '×':
    case '÷':
      return chooseOperator(state, key);
    case '=':
      return equals(state);
    case 'C':
      return initialState;
    case '±':
      return toggleSign(state);
    case '%':
      return percent(state);
    case '⌫':
      return backspace(state);
    default:
      return state;
  }
}

/** The calculator key for a keyboard key, if there is one. */
export function keyFromKeyboard(key: string): string | null {
  if (/^[0-9]$/.test(key) || key === '.' || key === '+' || key === '%') return key;
  const map: Record<string, string> = { '-': '−', '*': '×', x: '×', '/': '÷', Enter: '=', '=': '=', Escape: 'C', Backspace: '⌫', ',': '.' };
  return map[key] ?? null;
}
`;

const COMPONENT = `import { useEffect, useState } from 'react';
import { initialState, keyFromKeyboard, pressKey } from '../calculator';
import './Calculator.css';

const keys = ['C', '±', '%', '÷', '7', '8', '9', '×', '4', '5', '6', '−', '1', '2', '3', '+', '0', '.', '='];

function keyClass(key: string): string {
  if (key === '=') return 'calc-key calc-equals';
  if (['÷', '×', '−', '+'].includes(key)) return 'calc-key calc-operator';
  if (['C', '±', '%'].includes(key)) return 'calc-key calc-function';
  return key === '0' ? 'calc-key calc-zero' : 'calc-key';
}

export function Calculator() {
  const [state, setState] = useState(initialState);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const key = keyFromKeyboard(event.key);
      if (key === null) return;
      event.preventDefault();
      setState((current) => pressKey(current, key));
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <section className="section" id="calculator">
      <div className="wrap">
        <div className="calc card">
          <div className="calc-screen">
            <span className="calc-pending muted">{state.operator !== null && state.stored !== null ? state.stored + ' ' + state.operator : ' '}</span>
            <output className="calc-display" aria-live="polite">
              {state.display}
            </output>
          </div>
          <div className="calc-keys">
            {keys.map((key) => (
              <button key={key} type="button" className={keyClass(key)} aria-pressed={state.operator === key && state.waiting ? true : undefined} onClick={() => setState((current) => pressKey(current, key))}>
                {key}
              </button>
            ))}
          </div>
          <p className="muted calc-hint">Tip: you can type on your keyboard too — Enter for =, Esc to clear.</p>
        </div>
      </div>
    </section>
  );
}
`;

const CSS = `.calc {
  max-width: 22rem;
  margin-inline: auto;
  padding: 1.25rem;
}

.calc-screen {
  display: flex;
  flex-direction: column;
  align-items: flex-end;
  padding: 1rem 1.25rem;
  border-radius: var(--radius);
  background: var(--muted);
  margin-bottom: 1rem;
  min-height: 6.5rem;
  justify-content: flex-end;
}

.calc-pending {
  font-size: 0.95rem;
  min-height: 1.4em;
}

.calc-display {
  font-size: 2.75rem;
  font-weight: 700;
  letter-spacing: -0.03em;
  font-variant-numeric: tabular-nums;
  overflow-wrap: anywhere;
}

.calc-keys {
  display: grid;
  grid-template-columns: repeat(4, 1fr);
  gap: 0.6rem;
}

.calc-key {
  height: 3.75rem;
  border: 1px solid var(--border);
  border-radius: var(--radius);
  background: var(--card);
  font-size: 1.35rem;
  font-weight: 600;
  cursor: pointer;
}

.calc-key:hover {
  background: var(--muted);
}

.calc-function {
  color: var(--muted-foreground);
}

.calc-operator {
  color: var(--primary);
  background: color-mix(in srgb, var(--primary) 10%, var(--card));
}

.calc-operator[aria-pressed='true'] {
  background: var(--primary);
  color: var(--primary-foreground);
}

.calc-equals {
  background: var(--primary);
  color: var(--primary-foreground);
  border-color: var(--primary);
}

.calc-equals:hover {
  background: color-mix(in srgb, var(--primary) 88%, black);
}

.calc-zero {
  grid-column: span 2;
}

.calc-hint {
  font-size: 0.85rem;
  margin: 1rem 0 0;
  text-align: center;
}
`;

export function calculator(): KindBlueprint {
  return {
    main: [{ name: 'Calculator', path: 'src/components/Calculator.tsx', content: COMPONENT }],
    support: { 'src/calculator.ts': LOGIC, 'src/components/Calculator.css': CSS },
    coreSections: [],
    hero: 'compact',
    links: [{ href: '#calculator', label: 'Calculator' }],
    coreTask: { title: 'Build the calculator', description: 'A keypad with +, −, ×, ÷, percent, sign and clear; keyboard input; division by zero shows Error.' },
  };
}

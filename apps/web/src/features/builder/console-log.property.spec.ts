import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  CONSOLE_DEDUPE_WINDOW_MS,
  CONSOLE_LOG_MAX_ENTRIES,
  EMPTY_CONSOLE_LOG,
  type ConsoleEntry,
  appendConsoleMessage,
} from './console-log';

const T0 = 1_700_000_000_000;
/** A few texts and levels so that duplicates are frequent. */
const message = fc.record({
  level: fc.constantFrom('log', 'info', 'warn', 'warning', 'error', 'debug'),
  text: fc.constantFrom('boom', 'Hydration failed because', '[vite] connected', 'TypeError: x', 'deprecated API', '  '),
});
/** Messages with non-decreasing times (gaps from 0 to 4 s). */
const stream = fc.array(fc.tuple(message, fc.integer({ min: 0, max: 4000 })), { maxLength: 300 });

function replay(steps: readonly (readonly [{ level: string; text: string }, number])[]) {
  let now = T0;
  let state = EMPTY_CONSOLE_LOG;
  const accepted: ConsoleEntry[] = [];
  for (const [msg, gap] of steps) {
    now += gap;
    const next = appendConsoleMessage(state, msg, now);
    if (next !== state) accepted.push(next.entries.at(-1) as ConsoleEntry);
    state = next;
  }
  return { state, accepted };
}

describe('console log properties', () => {
  it('never holds more than 200 entries, and they are the latest kept ones in order', () => {
    fc.assert(
      fc.property(stream, (steps) => {
        const { state, accepted } = replay(steps);
        expect(state.entries.length).toBeLessThanOrEqual(CONSOLE_LOG_MAX_ENTRIES);
        expect(state.entries).toEqual(accepted.slice(-CONSOLE_LOG_MAX_ENTRIES));
      }),
    );
  });

  it('keeps only warnings and errors, never hydration or logger noise', () => {
    fc.assert(
      fc.property(stream, (steps) => {
        for (const entry of replay(steps).accepted) {
          expect(['warn', 'error']).toContain(entry.level);
          expect(entry.text).not.toMatch(/Hydration|\[vite\]|^\s*$/);
        }
      }),
    );
  });

  it('never keeps two copies of one message less than 1500 ms apart', () => {
    fc.assert(
      fc.property(stream, (steps) => {
        const last = new Map<string, number>();
        for (const entry of replay(steps).accepted) {
          const key = `${entry.level}|${entry.text}`;
          const at = Date.parse(entry.timestamp);
          const before = last.get(key);
          if (before !== undefined) expect(at - before).toBeGreaterThanOrEqual(CONSOLE_DEDUPE_WINDOW_MS);
          last.set(key, at);
        }
      }),
    );
  });

  it('keeps every kept-level message whose last kept copy is 1500 ms old or more', () => {
    fc.assert(
      fc.property(stream, (steps) => {
        // A model: the rules written the obvious way, with an unbounded memory.
        const memory = new Map<string, number>();
        let expected = 0;
        let now = T0;
        for (const [msg, gap] of steps) {
          now += gap;
          const level = msg.level === 'warning' ? 'warn' : msg.level;
          if (!['warn', 'error'].includes(level) || /Hydration|\[vite\]/.test(msg.text) || msg.text.trim() === '') continue;
          const key = `${level}|${msg.text}`;
          const at = memory.get(key);
          if (at !== undefined && now - at < CONSOLE_DEDUPE_WINDOW_MS) continue;
          memory.set(key, now);
          expected += 1;
        }
        expect(replay(steps).accepted).toHaveLength(expected);
      }),
    );
  });
});

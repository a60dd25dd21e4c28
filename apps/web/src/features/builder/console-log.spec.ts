import { describe, expect, it } from '@jest/globals';
import {
  CONSOLE_DEDUPE_MEMORY_LIMIT,
  CONSOLE_DEDUPE_WINDOW_MS,
  CONSOLE_LOG_MAX_ENTRIES,
  EMPTY_CONSOLE_LOG,
  type ConsoleLogState,
  appendConsoleMessage,
  clearConsoleLog,
  isHydrationMismatch,
  isInternalLoggerMessage,
  keptConsoleLevel,
} from './console-log';

const T0 = 1_700_000_000_000;
const add = (state: ConsoleLogState, level: string, text: string, now = T0) => appendConsoleMessage(state, { level, text }, now);

describe('console log', () => {
  it('keeps warnings and errors with an ISO timestamp from the caller', () => {
    let log = add(EMPTY_CONSOLE_LOG, 'warn', 'Each child in a list should have a unique "key" prop.');
    log = add(log, 'error', 'TypeError: x is undefined', T0 + 10);
    expect(log.entries).toEqual([
      { level: 'warn', text: 'Each child in a list should have a unique "key" prop.', timestamp: '2023-11-14T22:13:20.000Z' },
      { level: 'error', text: 'TypeError: x is undefined', timestamp: '2023-11-14T22:13:20.010Z' },
    ]);
  });

  it('drops log, info, debug and unknown levels, and reads "warning" as a warning', () => {
    for (const level of ['log', 'info', 'debug', 'trace', '']) expect(add(EMPTY_CONSOLE_LOG, level, 'hello')).toBe(EMPTY_CONSOLE_LOG);
    expect(keptConsoleLevel('warning')).toBe('warn');
    expect(keptConsoleLevel(' ERROR ')).toBe('error');
  });

  it.each([
    'Warning: Text content did not match. Server: "1" Client: "2"',
    'Hydration failed because the initial UI does not match what was rendered on the server.',
    "A tree hydrated but some attributes of the server rendered HTML didn't match the client properties.",
    'Warning: Expected server HTML to contain a matching <div> in <main>.',
    'There was an error while hydrating. Because the error happened outside of a Suspense boundary…',
    '[Vue warn]: Hydration node mismatch',
  ])('drops the hydration mismatch %p at either level', (text) => {
    expect(isHydrationMismatch(text)).toBe(true);
    expect(add(EMPTY_CONSOLE_LOG, 'warn', text)).toBe(EMPTY_CONSOLE_LOG);
    expect(add(EMPTY_CONSOLE_LOG, 'error', text)).toBe(EMPTY_CONSOLE_LOG);
  });

  it('keeps errors that merely mention hydration or water', () => {
    expect(isHydrationMismatch('useHydrated is not defined')).toBe(false);
    expect(add(EMPTY_CONSOLE_LOG, 'error', 'Failed to fetch water levels').entries).toHaveLength(1);
  });

  it.each(['[vite] connecting...', '  [vite] hot updated: /src/App.tsx', '[kiln] bridge ready', '[HMR] waiting for update signal'])(
    'ignores the internal logger message %p',
    (text) => {
      expect(isInternalLoggerMessage(text)).toBe(true);
      expect(add(EMPTY_CONSOLE_LOG, 'error', text)).toBe(EMPTY_CONSOLE_LOG);
    },
  );

  it('keeps a message that only mentions a logger later in its text', () => {
    expect(add(EMPTY_CONSOLE_LOG, 'error', 'Error from [vite] plugin').entries).toHaveLength(1);
  });

  it('ignores blank messages', () => {
    expect(add(EMPTY_CONSOLE_LOG, 'error', '   ')).toBe(EMPTY_CONSOLE_LOG);
  });

  it('drops the same level and text within 1500 ms of the last kept copy', () => {
    let log = add(EMPTY_CONSOLE_LOG, 'error', 'boom');
    log = add(log, 'error', 'boom', T0 + CONSOLE_DEDUPE_WINDOW_MS - 1);
    expect(log.entries).toHaveLength(1);
    log = add(log, 'warn', 'boom', T0 + 5); // another level is another message
    expect(log.entries).toHaveLength(2);
    log = add(log, 'error', 'boom', T0 + CONSOLE_DEDUPE_WINDOW_MS);
    expect(log.entries.map((e) => e.level)).toEqual(['error', 'warn', 'error']);
  });

  it('lets a message repeated without pause through about every 1.5 s', () => {
    let log = EMPTY_CONSOLE_LOG;
    for (let t = 0; t <= 3000; t += 100) log = add(log, 'error', 'tick', T0 + t);
    expect(log.entries.map((e) => Date.parse(e.timestamp) - T0)).toEqual([0, 1500, 3000]);
  });

  it('keeps at most 200 entries, dropping the oldest', () => {
    let log = EMPTY_CONSOLE_LOG;
    for (let i = 0; i < CONSOLE_LOG_MAX_ENTRIES + 5; i += 1) log = add(log, 'error', `e${i}`, T0 + i);
    expect(log.entries).toHaveLength(CONSOLE_LOG_MAX_ENTRIES);
    expect(log.entries[0]?.text).toBe('e5');
    expect(log.entries.at(-1)?.text).toBe(`e${CONSOLE_LOG_MAX_ENTRIES + 4}`);
  });

  it('resets the duplicate memory above 5000 keys', () => {
    let log = EMPTY_CONSOLE_LOG;
    for (let i = 0; i < CONSOLE_DEDUPE_MEMORY_LIMIT; i += 1) log = add(log, 'error', `m${i}`);
    expect(log.lastKept.size).toBe(CONSOLE_DEDUPE_MEMORY_LIMIT);
    expect(add(log, 'error', 'm0')).toBe(log); // still remembered: a duplicate

    log = add(log, 'error', 'one too many');
    expect(log.lastKept.size).toBe(1);
    expect(add(log, 'error', 'm0').entries.at(-1)?.text).toBe('m0'); // forgotten: kept again
  });

  it('forgets keys once they are older than the window', () => {
    let log = add(EMPTY_CONSOLE_LOG, 'error', 'a');
    log = add(log, 'error', 'b', T0 + CONSOLE_DEDUPE_WINDOW_MS);
    expect([...log.lastKept.values()]).toEqual([T0 + CONSOLE_DEDUPE_WINDOW_MS]);
  });

  it('clears entries and the duplicate memory', () => {
    const log = add(EMPTY_CONSOLE_LOG, 'error', 'boom');
    const cleared = clearConsoleLog(log);
    expect(cleared.entries).toEqual([]);
    expect(add(cleared, 'error', 'boom', T0 + 1).entries).toHaveLength(1);
  });

  it('never changes the state it is given', () => {
    const log = add(EMPTY_CONSOLE_LOG, 'error', 'a');
    const before = JSON.stringify({ entries: log.entries, memory: [...log.lastKept] });
    add(log, 'error', 'b', T0 + 1);
    expect(JSON.stringify({ entries: log.entries, memory: [...log.lastKept] })).toBe(before);
    expect(Object.isFrozen(log.entries)).toBe(true);
  });
});

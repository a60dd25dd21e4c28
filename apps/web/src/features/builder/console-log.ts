/**
 * The builder's console panel: what the running app (the live preview) writes to its console,
 * kept by the SPEC §5 and §9 rules as a pure, immutable reducer. Time comes from the caller.
 *
 * Which messages are kept:
 * - Only warnings and errors (SPEC §5 "warnings and errors kept"). `console.log`, `info` and
 *   `debug` are dropped: the panel is where a person without coding knowledge looks for
 *   problems, and a chatty app would push its real errors out of the 200 entries. Uncaught
 *   errors and unhandled rejections arrive from the preview bridge as level 'error'.
 * - Hydration-mismatch messages are dropped at either level: React reports them through
 *   `console.error` with a "Warning:" text, and they are noise in a client-rendered preview.
 * - Messages of the dev tooling's own loggers (`[vite] connecting...`, `[kiln] …`, HMR) are
 *   ignored: they are not the app's.
 * - A message equal to one kept less than 1500 ms earlier (same level and text) is a duplicate
 *   and dropped. The window counts from the last *kept* copy, so a message repeated forever
 *   still shows up about every 1.5 s instead of disappearing after its first appearance.
 * - At most 200 entries; the oldest go first.
 * - The duplicate memory holds one key per recently kept message; above 5000 keys it starts
 *   again from empty (a bound on memory during a flood of distinct messages). Keys older than
 *   the window no longer matter and are left behind whenever the memory is copied.
 */

/** SPEC §9: the panel keeps at most this many entries. */
export const CONSOLE_LOG_MAX_ENTRIES = 200;
/** SPEC §5/§9: the same message again within this many milliseconds is dropped. */
export const CONSOLE_DEDUPE_WINDOW_MS = 1500;
/** SPEC §9: the duplicate memory is reset when it grows above this many keys. */
export const CONSOLE_DEDUPE_MEMORY_LIMIT = 5000;

/** Levels a console message can arrive with (the preview bridge forwards these). */
export type ConsoleLevel = 'log' | 'info' | 'debug' | 'warn' | 'error';
/** Levels the panel keeps. */
export type KeptConsoleLevel = 'warn' | 'error';
export const KEPT_CONSOLE_LEVELS: readonly KeptConsoleLevel[] = Object.freeze(['warn', 'error'] as const);

/** SPEC §3 console entry: its text and an ISO timestamp (plus the level the panel shows). */
export interface ConsoleEntry {
  readonly level: KeptConsoleLevel;
  readonly text: string;
  /** ISO 8601, from the caller's clock when the message was kept. */
  readonly timestamp: string;
}

export interface ConsoleMessage {
  /** Anything; unknown levels are dropped. 'warning' is read as 'warn'. */
  readonly level: string;
  readonly text: string;
}

export interface ConsoleLogState {
  /** Oldest first. */
  readonly entries: readonly ConsoleEntry[];
  /** Duplicate memory: level+text key → when it was last kept (ms since the epoch). */
  readonly lastKept: ReadonlyMap<string, number>;
}

/** Prefixes of the dev tooling's own loggers (compared case-insensitively, after leading spaces). */
export const INTERNAL_LOGGER_PREFIXES: readonly string[] = Object.freeze([
  '[vite]',
  '[kiln]',
  '[hmr]',
  '[webpack-dev-server]',
  '[fast refresh]',
]);

/** React's and other frameworks' hydration-mismatch reports. */
const HYDRATION_PATTERNS: readonly RegExp[] = [
  /hydration[\s\S]*(mismatch|did not match|didn't match|does not match|doesn't match|failed)/i,
  /(mismatch|did not match|didn't match)[\s\S]*hydrat/i,
  /text content did not match/i,
  /expected server html to contain a matching/i,
  /a tree hydrated but some attributes/i,
  /there was an error while hydrating/i,
];

export const EMPTY_CONSOLE_LOG: ConsoleLogState = Object.freeze({ entries: Object.freeze([]), lastKept: new Map() });

/** The level the panel keeps this message under, or null when the level is not kept. */
export function keptConsoleLevel(level: string): KeptConsoleLevel | null {
  const normalised = level.trim().toLowerCase();
  if (normalised === 'error') return 'error';
  if (normalised === 'warn' || normalised === 'warning') return 'warn';
  return null;
}

export function isHydrationMismatch(text: string): boolean {
  return HYDRATION_PATTERNS.some((pattern) => pattern.test(text));
}

export function isInternalLoggerMessage(text: string): boolean {
  const start = text.trimStart().toLowerCase();
  return INTERNAL_LOGGER_PREFIXES.some((prefix) => start.startsWith(prefix));
}

/** The duplicate key of a message: its level and its text. */
export function consoleDedupeKey(level: KeptConsoleLevel, text: string): string {
  return `${level}\u0000${text}`;
}

/**
 * Adds a message to the log if the rules keep it; otherwise returns the same state object.
 * `now` is the caller's clock in milliseconds since the epoch.
 */
export function appendConsoleMessage(state: ConsoleLogState, message: ConsoleMessage, now: number): ConsoleLogState {
  const level = keptConsoleLevel(message.level);
  if (level === null) return state;
  const text = message.text;
  if (text.trim() === '' || isInternalLoggerMessage(text) || isHydrationMismatch(text)) return state;
  if (!Number.isFinite(now)) return state;

  const key = consoleDedupeKey(level, text);
  const last = state.lastKept.get(key);
  if (last !== undefined && now - last < CONSOLE_DEDUPE_WINDOW_MS) return state;

  const lastKept = rememberKept(state.lastKept, key, now);
  const entry: ConsoleEntry = Object.freeze({ level, text, timestamp: new Date(now).toISOString() });
  const entries = [...state.entries, entry];
  const trimmed = entries.length > CONSOLE_LOG_MAX_ENTRIES ? entries.slice(entries.length - CONSOLE_LOG_MAX_ENTRIES) : entries;
  return Object.freeze({ entries: Object.freeze(trimmed), lastKept });
}

/** The clear button: no entries, and no duplicate memory either (the next message shows). */
export function clearConsoleLog(_state: ConsoleLogState): ConsoleLogState {
  return EMPTY_CONSOLE_LOG;
}

function rememberKept(memory: ReadonlyMap<string, number>, key: string, now: number): ReadonlyMap<string, number> {
  const next = new Map<string, number>();
  for (const [k, at] of memory) {
    // A key outside the window behaves exactly as a missing one: leave it behind.
    if (now - at < CONSOLE_DEDUPE_WINDOW_MS) next.set(k, at);
  }
  next.set(key, now);
  if (next.size > CONSOLE_DEDUPE_MEMORY_LIMIT) return new Map([[key, now]]);
  return next;
}

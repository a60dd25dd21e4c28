import { loggedUrl } from './logged-url.js';

/** How the API writes its logs (LOG_FORMAT): one JSON object a line, or one readable line a record. */
export type LogFormat = 'pretty' | 'json';
export const LOG_FORMATS: readonly LogFormat[] = ['pretty', 'json'];

/** A pino record as it reaches the destination (pino-http's request records carry req, res and responseTime). */
export interface LogRecord {
  readonly level?: number;
  readonly time?: number;
  readonly msg?: unknown;
  readonly context?: unknown;
  readonly req?: { readonly method?: unknown; readonly url?: unknown };
  readonly res?: { readonly statusCode?: unknown };
  readonly responseTime?: unknown;
  readonly err?: { readonly type?: unknown; readonly message?: unknown; readonly stack?: unknown };
  readonly [field: string]: unknown;
}

const LEVELS: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const INFO = 30;

/**
 * Nest's start-up chatter: one line per module and per route (~110 lines). The routes are in the
 * OpenAPI document; the readable format leaves these out, the JSON format keeps them.
 */
export const WIRING_CONTEXTS: ReadonlySet<string> = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Fields every record has or the line already shows. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'context', 'req', 'res', 'responseTime', 'err']);

const ANSI = { dim: 2, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36 } as const;
type Paint = (colour: keyof typeof ANSI, text: string) => string;

const two = (n: number) => String(n).padStart(2, '0');
/** Local wall-clock time, HH:MM:SS.mmm: a developer reads it next to their own clock. */
function clockTime(ms: number): string {
  const d = new Date(ms);
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

function levelColour(level: number): keyof typeof ANSI {
  return level >= 50 ? 'red' : level >= 40 ? 'yellow' : level >= INFO ? 'green' : 'dim';
}

function statusColour(status: number): keyof typeof ANSI {
  return status >= 500 ? 'red' : status >= 400 ? 'yellow' : status >= 300 ? 'cyan' : 'green';
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
}

/** Fields the record carries beyond the usual ones, as ` key=value`. */
function extras(record: LogRecord): string {
  return Object.entries(record)
    .filter(([key]) => !SHOWN.has(key))
    .map(([key, value]) => ` ${key}=${text(value)}`)
    .join('');
}

/** An error's stack (or type and message), indented under its line. */
function errorLines(err: LogRecord['err']): string {
  if (!err) return '';
  const detail = typeof err.stack === 'string' ? err.stack : `${text(err.type ?? 'Error')}: ${text(err.message ?? '')}`;
  return `\n${detail
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')}`;
}

/**
 * One record as one readable line (an error's stack follows on indented lines), or null for
 * Nest's wiring chatter. A request reads `12:04:05.123 GET /api/projects 200 12ms`, with
 * capability tokens in the query redacted; anything else `12:04:05.123 INFO  [Context] message`.
 * Colours (ANSI) only when asked: the caller knows whether the output is a terminal.
 */
export function prettyLogLine(record: LogRecord, options: { readonly colour: boolean }): string | null {
  const paint: Paint = options.colour ? (colour, s) => `\u001b[${ANSI[colour]}m${s}\u001b[0m` : (_colour, s) => s;
  const level = typeof record.level === 'number' ? record.level : INFO;
  const context = typeof record.context === 'string' ? record.context : null;
  if (context !== null && WIRING_CONTEXTS.has(context) && level <= INFO) return null;
  const time = paint('dim', clockTime(typeof record.time === 'number' ? record.time : 0));
  const status = record.res?.statusCode;
  if (record.req && typeof status === 'number' && record.responseTime !== undefined) {
    const url = loggedUrl(text(record.req.url ?? ''));
    const duration = typeof record.responseTime === 'number' ? `${Math.round(record.responseTime)}ms` : text(record.responseTime);
    const failed = record.err ? ` ${paint('red', text(record.err.message ?? 'failed'))}` : '';
    return `${time} ${paint('cyan', text(record.req.method ?? '?'))} ${url} ${paint(statusColour(status), String(status))} ${paint('dim', duration)}${failed}${errorLines(level >= 50 ? record.err : undefined)}`;
  }
  const label = paint(levelColour(level), (LEVELS[level] ?? `L${level}`).padEnd(5));
  const where = context === null ? '' : `${paint('magenta', `[${context}]`)} `;
  return `${time} ${label} ${where}${text(record.msg ?? '')}${extras(record)}${errorLines(record.err)}`;
}

import type { RestError } from '@kiln/domain';
import { isDatabaseUnavailable } from '../postgres/database-unavailable.js';

/**
 * PostgREST's table of PostgreSQL error codes to HTTP statuses (docs.postgrest.org, "Errors"),
 * with one deliberate change: a statement cancelled by its timeout (57014) is 504, not 500 — the
 * request was too slow, nothing is broken. `anonymous`: 42501 is 401 for anon, 403 otherwise.
 */
export function statusOfPgError(code: string, anonymous: boolean): number {
  if (code === '42501') return anonymous ? 401 : 403;
  if (code === '57014') return 504;
  const exact: Record<string, number> = { '23503': 409, '23505': 409, '25006': 405, '53400': 500, '42883': 404, '42P01': 404, '42P17': 500, P0001: 400, '57P01': 503 };
  if (exact[code] !== undefined) return exact[code];
  const byClass: Record<string, number> = { '08': 503, '09': 500, '0L': 403, '0P': 403, '25': 500, '28': 403, '2D': 500, '38': 500, '39': 500, '3B': 500, '40': 500, '53': 503, '54': 500, '55': 500, '57': 500, '58': 500, F0: 500, HV: 500, P0: 500, XX: 500, '42': 400, '22': 400, '23': 400 };
  return byClass[code.slice(0, 2)] ?? 400;
}

/** Retry-After of a 503 from the data origin (the API's own 503s say the same). */
export const RETRY_AFTER_SECONDS = 5;

export const unavailable = (message = 'Could not connect to the project database'): RestError => ({
  status: 503,
  code: 'PGRST000',
  message,
  details: null,
  hint: 'Try again in a moment.',
});

/** Every connection the project's plan allows is in use (53300 at login, or the pool's wait ran out): busy, not broken. */
export const busy = (): RestError => unavailable('The project database has no free connection: its plan’s connection limit is reached');

/** Why a connection could not be had, in PostgREST's shape: always 503 (Retry-After is added when sent). */
export function connectErrorOf(error: unknown): RestError {
  const e = error as { code?: unknown; message?: unknown } | null;
  // pg's Pool says "timeout exceeded when trying to connect" when all its clients stay busy.
  if (e?.code === '53300' || (typeof e?.message === 'string' && /timeout exceeded when trying to connect/i.test(e.message))) return busy();
  return unavailable();
}

/** An error thrown while running a request, in PostgREST's shape. */
export function restErrorOf(error: unknown, anonymous: boolean): RestError {
  if ((error as { code?: unknown } | null)?.code === '53300') return busy();
  if (isDatabaseUnavailable(error)) return unavailable();
  const e = error as { code?: unknown; message?: unknown; detail?: unknown; hint?: unknown };
  if (typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
    return {
      status: statusOfPgError(e.code, anonymous),
      code: e.code,
      message: typeof e.message === 'string' ? e.message : 'database error',
      details: typeof e.detail === 'string' ? e.detail : null,
      hint: typeof e.hint === 'string' ? e.hint : null,
    };
  }
  return unavailable();
}

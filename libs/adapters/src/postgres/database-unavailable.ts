import pg from 'pg';

/** Marks an error raised while getting a connection from the pool (see ConnectionFailureMarkingPool). */
const CONNECT_FAILED = Symbol.for('kiln.postgres.connectFailed');

/**
 * SQLSTATEs that mean "no usable connection", not "this query is wrong": connection exceptions
 * (class 08), the server shutting down or starting (57P01-57P03), too many connections (53300).
 */
const UNAVAILABLE_STATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/** What pg says when a connection it was using is gone (no SQLSTATE: the socket closed). */
const CONNECTION_LOST = [
  /^Connection terminated/, // '… unexpectedly', '… due to connection timeout'
  /^timeout exceeded when trying to connect$/, // pg-pool: no connection within connectionTimeoutMillis
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
];

/**
 * Whether an error (or one it wraps: TypeORM's `driverError`, `cause`, an AggregateError's
 * `errors`) means the database cannot be reached right now — an outage to answer with 503 and
 * Retry-After, not a bug. A failed connect from the pool counts whatever its cause (refused,
 * timed out, wrong password, too many clients); once connected, only the SQLSTATEs and the
 * connection-lost messages above do, so a bad query stays a 500.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const e = error as { [CONNECT_FAILED]?: unknown; code?: unknown; severity?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; errors?: unknown };
  if (e[CONNECT_FAILED] === true) return true;
  // A server error (pg's DatabaseError has a severity), by shape: another copy of pg fails instanceof.
  if (typeof e.code === 'string' && typeof e.severity === 'string' && UNAVAILABLE_STATE.test(e.code)) return true;
  if (typeof e.message === 'string' && CONNECTION_LOST.some((pattern) => pattern.test(e.message as string))) return true;
  const wrapped = [e.driverError, e.cause, ...(Array.isArray(e.errors) ? e.errors : [])];
  return wrapped.some((inner) => inner !== error && isDatabaseUnavailable(inner, depth + 1));
}

/** Tags `error` as a failed connect (kept the same object: its code and message stay as pg made them). */
export function markConnectFailure<T>(error: T): T {
  if (typeof error === 'object' && error !== null && Object.isExtensible(error)) {
    Object.defineProperty(error, CONNECT_FAILED, { value: true, enumerable: false });
  }
  return error;
}

type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * pg's Pool, except that an error from `connect()` — TypeORM gets every connection that way —
 * is tagged as a failed connect, since a bare `ECONNREFUSED` could otherwise come from anything.
 */
export class ConnectionFailureMarkingPool extends pg.Pool {
  constructor(config?: pg.PoolConfig) {
    super(config);
    const connect = super.connect.bind(this) as (callback?: ConnectCallback) => Promise<pg.PoolClient> | void;
    const marked = (callback?: ConnectCallback): Promise<pg.PoolClient> | void =>
      callback
        ? connect((error, client, done) => callback(error === undefined || error === null ? error : markConnectFailure(error), client, done))
        : (connect() as Promise<pg.PoolClient>).catch((error: unknown) => Promise.reject(markConnectFailure(error)));
    this.connect = marked as pg.Pool['connect'];
  }
}

/** The `pg` module as TypeORM loads it, with the marking Pool (everything else is pg's own). */
export const markingPgDriver: typeof pg = Object.create(pg, { Pool: { value: ConnectionFailureMarkingPool } }) as typeof pg;

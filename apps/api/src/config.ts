/** The API's settings, read once from the environment at start-up. */
export interface AppConfig {
  readonly port: number;
}

export type Env = Readonly<Record<string, string | undefined>>;

const DEFAULT_PORT = 3000;
const MIN_PORT = 1;
const MAX_PORT = 65_535;

/** Reads and validates the environment. Pure: throws an Error with a readable message on bad input. */
export function loadConfig(env: Env): AppConfig {
  return { port: parsePort(env['PORT']) };
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_PORT;
  const text = raw.trim();
  if (!/^\d+$/.test(text)) {
    throw new Error(`PORT must be an integer between ${MIN_PORT} and ${MAX_PORT}, got "${raw}"`);
  }
  const port = Number(text);
  if (port < MIN_PORT || port > MAX_PORT) {
    throw new Error(`PORT must be between ${MIN_PORT} and ${MAX_PORT}, got ${port}`);
  }
  return port;
}

import { DEFAULT_DATABASE_PLAN_LIMITS, DEFAULT_REALTIME_LIMITS, DEFAULT_STORAGE_PLAN_LIMITS, type DatabaseLimits, type DatabasePlanLimits, type RealtimeLimits, type StoragePlanLimits } from '@kiln/domain';

type Env = Readonly<Record<string, string | undefined>>;
type Report = (problem: string) => void;

/** Where project databases live and what they may use (docs/databases.md "Configuration"). */
export interface DatabasesConfig {
  /** DATABASE_PROVIDER: `local` (default: Kiln's own PostgreSQL server) or `neon`. */
  readonly provider: 'local' | 'neon';
  /** NEON_API_KEY and NEON_API_URL (default https://console.neon.tech/api/v2), with `neon`. */
  readonly neon: { readonly apiKey: string; readonly apiUrl: string } | null;
  /** DATA_URL_TEMPLATE with `{port}` filled in: each project's data origin, `{ref}` its database ref. */
  readonly dataUrlTemplate: string;
  /** DATABASE_SECRETS_KEY (32 bytes, base64), or null: generated under DATA_DIR/secrets. */
  readonly secretsKey: string | null;
  /** DATABASE_FREE_SIZE_MB, DATABASE_FREE_CONNECTIONS, DATABASE_PAID_SIZE_MB, DATABASE_PAID_CONNECTIONS, DATABASE_STATEMENT_TIMEOUT_MS. */
  readonly limits: DatabasePlanLimits;
  /** STORAGE_FREE_QUOTA_MB, STORAGE_PAID_QUOTA_MB (a project's files, all together), STORAGE_MAX_FILE_MB (one file, any plan). */
  readonly storage: StoragePlanLimits;
  /** REALTIME_SOCKETS_PER_USER, REALTIME_SOCKETS_PER_PROJECT (docs/databases.md "Realtime"). */
  readonly realtime: RealtimeLimits;
}

export const DEFAULT_DATA_URL_TEMPLATE = 'http://{ref}.data.localhost:{port}';
export const DEFAULT_NEON_API_URL = 'https://console.neon.tech/api/v2';

const blank = (raw: string | undefined): string | null => (raw === undefined || raw.trim() === '' ? null : raw.trim());

function whole(env: Env, name: string, min: number, max: number, fallback: number, report: Report): number {
  const text = blank(env[name]);
  if (text === null) return fallback;
  const value = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) {
    report(`${name} must be a whole number between ${min} and ${max}, got "${text}"`);
    return fallback;
  }
  return value;
}

/** The data origin of a ref: the template with `{ref}` filled in. */
export function dataUrlFor(template: string, ref: string): string {
  return template.replace('{ref}', ref);
}

function parseDataUrlTemplate(raw: string | null, port: number, report: Report): string {
  const fallback = DEFAULT_DATA_URL_TEMPLATE.replace('{port}', String(port));
  if (raw === null) return fallback;
  const template = raw.replace('{port}', String(port)).replace(/\/+$/, '');
  let url: URL | null = null;
  try {
    url = new URL(template.replace('{ref}', 'a'.repeat(20)));
  } catch {
    url = null;
  }
  const refInHost = template.split('{ref}').length === 2 && /^https?:\/\/\{ref\}\./.test(template);
  if (!url || !['http:', 'https:'].includes(url.protocol) || !refInHost || url.pathname !== '/' || url.search || url.hash || url.username) {
    report(`DATA_URL_TEMPLATE must be an http(s) origin whose first host label is {ref}, like ${DEFAULT_DATA_URL_TEMPLATE}, got "${raw}"`);
    return fallback;
  }
  return template;
}

function parseLimits(env: Env, report: Report): DatabasePlanLimits {
  const d = DEFAULT_DATABASE_PLAN_LIMITS;
  const timeout = whole(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 100, 600_000, NaN, report);
  const tier = (prefix: 'FREE' | 'PAID', base: DatabaseLimits): DatabaseLimits => ({
    sizeMb: whole(env, `DATABASE_${prefix}_SIZE_MB`, 1, 10_000_000, base.sizeMb, report),
    connections: whole(env, `DATABASE_${prefix}_CONNECTIONS`, 1, 1_000, base.connections, report),
    statementTimeoutMs: Number.isNaN(timeout) ? base.statementTimeoutMs : timeout,
  });
  return { free: tier('FREE', d.free), paid: tier('PAID', d.paid) };
}

const MB = 1024 * 1024;

function parseStorageLimits(env: Env, report: Report): StoragePlanLimits {
  const d = DEFAULT_STORAGE_PLAN_LIMITS;
  return {
    free: { quotaBytes: whole(env, 'STORAGE_FREE_QUOTA_MB', 1, 100_000_000, d.free.quotaBytes / MB, report) * MB },
    paid: { quotaBytes: whole(env, 'STORAGE_PAID_QUOTA_MB', 1, 100_000_000, d.paid.quotaBytes / MB, report) * MB },
    maxFileBytes: whole(env, 'STORAGE_MAX_FILE_MB', 1, 5_000, d.maxFileBytes / MB, report) * MB,
  };
}

/** Reads the databases' settings; every problem is reported (the API then refuses to start). */
export function parseDatabasesConfig(env: Env, port: number, report: Report): DatabasesConfig {
  const providerRaw = blank(env['DATABASE_PROVIDER']) ?? 'local';
  let provider: 'local' | 'neon' = 'local';
  if (providerRaw === 'local' || providerRaw === 'neon') provider = providerRaw;
  else report(`DATABASE_PROVIDER must be local or neon, got "${providerRaw}"`);
  const apiKey = blank(env['NEON_API_KEY']);
  const apiUrlRaw = blank(env['NEON_API_URL']);
  let neon: DatabasesConfig['neon'] = null;
  if (provider === 'neon') {
    if (apiKey === null) report('DATABASE_PROVIDER=neon needs NEON_API_KEY (a Neon API key)');
    else if (/\s/.test(apiKey)) report('NEON_API_KEY must not contain spaces or line breaks (check how it was pasted)');
    let apiUrl = DEFAULT_NEON_API_URL;
    if (apiUrlRaw !== null) {
      try {
        const url = new URL(apiUrlRaw);
        if (!['http:', 'https:'].includes(url.protocol)) throw new Error('scheme');
        apiUrl = apiUrlRaw.replace(/\/+$/, '');
      } catch {
        report(`NEON_API_URL must be an http(s) URL, got "${apiUrlRaw}"`);
      }
    }
    if (apiKey !== null) neon = { apiKey, apiUrl };
  } else if (apiKey !== null || apiUrlRaw !== null) {
    report('NEON_API_KEY / NEON_API_URL are set but DATABASE_PROVIDER is not neon: set DATABASE_PROVIDER=neon, or unset them');
  }
  const secretsKey = blank(env['DATABASE_SECRETS_KEY']);
  if (secretsKey !== null && (!/^[A-Za-z0-9+/]+={0,2}$/.test(secretsKey) || Buffer.from(secretsKey, 'base64').length !== 32)) {
    report('DATABASE_SECRETS_KEY must be 32 random bytes in base64 (openssl rand -base64 32)');
  }
  return {
    provider,
    neon,
    dataUrlTemplate: parseDataUrlTemplate(blank(env['DATA_URL_TEMPLATE']), port, report),
    secretsKey,
    limits: parseLimits(env, report),
    storage: parseStorageLimits(env, report),
    realtime: {
      ...DEFAULT_REALTIME_LIMITS,
      socketsPerUser: whole(env, 'REALTIME_SOCKETS_PER_USER', 1, 100_000, DEFAULT_REALTIME_LIMITS.socketsPerUser, report),
      socketsPerProject: whole(env, 'REALTIME_SOCKETS_PER_PROJECT', 1, 1_000_000, DEFAULT_REALTIME_LIMITS.socketsPerProject, report),
    },
  };
}

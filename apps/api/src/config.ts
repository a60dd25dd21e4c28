import { DEFAULT_SANDBOX_LIMITS } from '@kiln/adapters';
import { PlanCatalog, type UpperTierConfig } from '@kiln/domain';
import { type AnalyticsConfig, parseAnalyticsConfig } from './analytics/analytics-config.js';
import { LOG_FORMATS, type LogFormat } from './common/log-format.js';
import { type DatabasesConfig, parseDatabasesConfig } from './databases/databases-config.js';
import { type GeoConfig, parseGeoConfig } from './geo/geo-config.js';
import { type MarketingConfig, parseMarketingConfig } from './marketing/marketing-config.js';
import { type HostingConfig, parseHostingConfig } from './hosting/published-urls.js';
import { DEFAULT_PREVIEW_URL_TEMPLATE, parsePreviewUrlTemplate } from './preview/preview-url.js';
import { parseRepositoryImportTestOrigins } from './sandbox/repository-import-config.js';
import { parseSandboxEngine, type SandboxEngineConfig } from './sandbox/sandbox-engine-config.js';
import { type ObjectStoreConfig, parseObjectStoreConfig } from './storage/object-store-config.js';

export type NodeEnv = 'development' | 'test' | 'production';
export const NODE_ENVS: readonly NodeEnv[] = ['development', 'test', 'production'];

/** How access tokens are verified: Kiln's own auth, or an external Supabase project. */
export type AuthMode =
  | { readonly kind: 'builtin' }
  | { readonly kind: 'supabase-jwks'; readonly jwksUrl: string }
  | { readonly kind: 'supabase-secret'; readonly jwtSecret: string };

/** Stripe price ids per purchasable thing and currency (STRIPE_PRICE_*). */
export interface StripePrices {
  readonly pro_monthly: { readonly USD: string; readonly INR: string };
  readonly pro_annual: { readonly USD: string; readonly INR: string };
  readonly addon: { readonly USD: string; readonly INR: string };
}

/** Which payment provider: Stripe when STRIPE_SECRET_KEY is set, else the local test checkout. */
export type PaymentsMode =
  | { readonly kind: 'local' }
  | { readonly kind: 'stripe'; readonly secretKey: string; readonly webhookSecret: string; readonly prices: StripePrices };

/** The STRIPE_PRICE_* variables, by the price they name. */
export const STRIPE_PRICE_VARIABLES = {
  pro_monthly: { USD: 'STRIPE_PRICE_PRO_MONTHLY_USD', INR: 'STRIPE_PRICE_PRO_MONTHLY_INR' },
  pro_annual: { USD: 'STRIPE_PRICE_PRO_ANNUAL_USD', INR: 'STRIPE_PRICE_PRO_ANNUAL_INR' },
  addon: { USD: 'STRIPE_PRICE_ADDON_USD', INR: 'STRIPE_PRICE_ADDON_INR' },
} as const;

/**
 * Which model answers the AI routes (ANTHROPIC_*, OPENAI_*): Anthropic, any OpenAI-compatible
 * endpoint, or the deterministic offline generator when none is configured.
 */
export type AiProviderConfig =
  | { readonly provider: 'offline' }
  | { readonly provider: 'anthropic'; readonly apiKey: string; readonly model: string | null }
  | {
      readonly provider: 'openai-compatible';
      /** A short name of the endpoint ('openai', 'openrouter', 'ollama' or its host name). */
      readonly name: string;
      readonly baseURL: string;
      readonly apiKey: string | null;
      readonly model: string;
    };

/** The API's settings, read once from the environment at start-up. */
export interface AppConfig {
  readonly port: number;
  readonly nodeEnv: NodeEnv;
  /** LOG_FORMAT: readable lines (default outside production) or JSON lines (default in production). */
  readonly logFormat: LogFormat;
  /** Where the embedded PostgreSQL and other local state live (relative to the working directory). */
  readonly dataDir: string;
  /** A postgres:// URL, or null: the start-up code then runs an embedded PostgreSQL in `dataDir`. */
  readonly databaseUrl: string | null;
  /** Browser origins allowed by CORS; the first is the site origin used in share links. */
  readonly webOrigins: readonly string[];
  /** smtp:// or smtps:// URL of the mail relay, or null (mail stays in the local outbox). */
  readonly smtpUrl: string | null;
  /**
   * Express `trust proxy` (TRUST_PROXY): false, or the number of proxy hops in front of the API.
   * Behind a proxy the per-IP rate limits need it, or every client shares the proxy's address.
   */
  readonly trustProxy: number | false;
  /** The From address of mail Kiln sends (MAIL_FROM). */
  readonly mailFrom: string;
  /** The built-in auth's signing key, or null (the auth module then makes or loads one in `dataDir`). */
  readonly authJwtPrivateKey: string | null;
  readonly auth: AuthMode;
  /** The configured upper tiers (basic, starter, premium) as given in PLAN_UPPER_TIERS. */
  readonly upperTiers: readonly UpperTierConfig[];
  /** The plan catalog: the standard plans plus the configured upper tiers, validated. */
  readonly plans: PlanCatalog;
  /**
   * WEB_DIST_DIR: the built web app to serve on the API's origin, or null (apps/web/dist is
   * then looked for from the working directory upwards).
   */
  readonly webDistDir: string | null;
  /** The payment provider (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_*). */
  readonly payments: PaymentsMode;
  /**
   * PUBLIC_API_URL: the API's own public origin, where the local test checkout pages are served
   * (default http://localhost:<PORT>).
   */
  readonly publicApiUrl: string;
  /**
   * PREVIEW_URL_TEMPLATE with `{port}` filled in: each project's live preview origin, `{id}` the
   * project id (default http://{id}.preview.localhost:<PORT>). Validated by parsePreviewUrlTemplate.
   */
  readonly previewUrlTemplate: string;
  /** Publishing: PUBLISHED_URL_TEMPLATE, HOSTING_TARGET_CNAME, HOSTING_TARGET_ADDRESSES, DNS_SERVERS (docs/hosting.md). */
  readonly hosting: HostingConfig;
  /** Project databases: DATABASE_PROVIDER, NEON_*, DATA_URL_TEMPLATE, DATABASE_SECRETS_KEY, DATABASE_*_SIZE_MB / _CONNECTIONS (docs/databases.md). */
  readonly databases: DatabasesConfig;
  /**
   * What one project's sandbox may use (SANDBOX_MEMORY_MB, SANDBOX_CPU_SHARES, SANDBOX_PROCESSES,
   * SANDBOX_DISK_MB, SANDBOX_OPEN_FILES; defaults DEFAULT_SANDBOX_LIMITS, docs/security.md "Limits").
   */
  readonly sandboxLimits: { readonly memoryBytes: number; readonly cpuShares: number; readonly processes: number; readonly diskBytes: number; readonly openFiles: number };
  /** Where sandboxes run: SANDBOX_ENGINE, DOCKER_HOST, SANDBOX_IMAGE, SANDBOX_RUNTIME, SANDBOX_PAUSE_IDLE_SECONDS. */
  readonly sandboxEngine: SandboxEngineConfig;
  /** REPOSITORY_IMPORT_TEST_ORIGINS: local git servers the repository import may reach (tests only; never in production). */
  readonly repositoryImportTestOrigins: readonly string[];
  /** PREVIEW_IDLE_MINUTES: a dev server nobody asked for during this time is stopped (default 10). */
  readonly previewIdleMinutes: number;
  /**
   * PREVIEW_TOKEN_SECRET: the HS256 key of preview tokens and cookies (32+ characters), or null
   * for a random key per process (previews then need a fresh URL after a restart, and every
   * API instance behind one preview domain needs the same secret).
   */
  readonly previewTokenSecret: string | null;
  /** The AI provider (ANTHROPIC_API_KEY, ANTHROPIC_MODEL, OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL). */
  readonly ai: AiProviderConfig;
  /** AI_REPAIR_ROUNDS: free repair rounds when a turn leaves more errors than it found (0-5, default 2). */
  readonly aiRepairRounds: number;
  /** AI_RATE_LIMIT_PER_MINUTE: free AI helper requests per user and minute (burst the same; 1-10000, default 30). */
  readonly aiRateLimitPerMinute: number;
  /**
   * AI_CONTEXT_CHARS: the most characters sent with each AI request besides the instructions (the
   * message, file listing, history and files together). Default 200 000 for Anthropic, OpenAI and
   * OpenRouter; 24 000 for other OpenAI-compatible endpoints (local servers such as Ollama or LM
   * Studio often run small context windows); 4 000–2 000 000.
   */
  readonly aiContextChars: number;
  /** The IP lookup that picks the checkout currency: GEOLOCATION_URL, GEOLOCATION_TIMEOUT_MS (geo/geo-config.ts). */
  readonly geo: GeoConfig;
  /** Marketing contacts: BREVO_API_KEY, BREVO_BASE_URL, BREVO_TIMEOUT_MS, MARKETING_DELIVERY_INTERVAL_MS (marketing/marketing-config.ts). */
  readonly marketing: MarketingConfig;
  /** Analytics: OPERATOR_EMAILS, GA4_MEASUREMENT_ID, GA4_SCRIPT_ORIGIN, ANALYTICS_ON_LOCALHOST (analytics/analytics-config.ts). */
  readonly analytics: AnalyticsConfig;
  /**
   * Where file bytes live (storage, attachments): OBJECT_STORE (filesystem, the default, or s3),
   * OBJECT_STORE_DIR, S3_* (storage/object-store-config.ts, docs/databases.md "Object storage").
   */
  readonly objectStore: ObjectStoreConfig;
}

export type Env = Readonly<Record<string, string | undefined>>;

export const DEFAULT_PORT = 3000;
export const DEFAULT_DATA_DIR = '.data';
export const DEFAULT_MAIL_FROM = 'Kiln <no-reply@kiln.localhost>';
export const DEFAULT_WEB_ORIGINS: readonly string[] = ['http://localhost:5173', 'http://localhost:3000'];
export const DEFAULT_PREVIEW_IDLE_MINUTES = 10;
export const DEFAULT_AI_REPAIR_ROUNDS = 2;
export const MAX_AI_REPAIR_ROUNDS = 5;
export const DEFAULT_AI_RATE_LIMIT_PER_MINUTE = 30;
export const MAX_AI_RATE_LIMIT_PER_MINUTE = 10_000;
export const DEFAULT_AI_CONTEXT_CHARS = 200_000;
/** Local OpenAI-compatible servers (Ollama, LM Studio, vLLM …) often run 4k–8k-token windows. */
export const DEFAULT_LOCAL_AI_CONTEXT_CHARS = 24_000;
const MIN_AI_CONTEXT_CHARS = 4_000;
const MAX_AI_CONTEXT_CHARS = 2_000_000;
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
const MAX_PREVIEW_IDLE_MINUTES = 24 * 60;
const MIN_PORT = 1;
const MAX_PORT = 65_535;
/** HS256 secrets shorter than the hash output are brute-forceable; Supabase's are 40+ characters. */
export const MIN_JWT_SECRET_LENGTH = 32;

/** Thrown by `loadConfig` with every problem found, one per line. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads and validates the environment. Pure (no I/O, no process.env): throws a ConfigError
 * listing every problem at once, so one failed start shows everything to fix.
 */
export function loadConfig(env: Env): AppConfig {
  const problems: string[] = [];
  const read = <T>(parse: (report: (problem: string) => void) => T): T => parse((p) => problems.push(p));

  const port = read((report) => parsePort(env['PORT'], report));
  const nodeEnv = read((report) => parseNodeEnv(env['NODE_ENV'], report));
  const logFormat = read((report) => parseLogFormat(env['LOG_FORMAT'], nodeEnv, report));
  const dataDir = blankToNull(env['DATA_DIR']) ?? DEFAULT_DATA_DIR;
  // libpq allows a URL without a host (a Unix socket: postgres:///kiln?host=/run/postgresql).
  const databaseUrl = read((report) =>
    parseUrl('DATABASE_URL', env['DATABASE_URL'], ['postgres:', 'postgresql:'], report, { hostRequired: false }),
  );
  const webOrigins = read((report) => parseOrigins(env['WEB_ORIGIN'], report));
  const smtpUrl = read((report) => parseUrl('SMTP_URL', env['SMTP_URL'], ['smtp:', 'smtps:'], report));
  const trustProxyRaw = blankToNull(env['TRUST_PROXY']);
  let trustProxy: number | false = false;
  if (trustProxyRaw !== null && trustProxyRaw !== 'false' && trustProxyRaw !== '0') {
    if (/^[1-9]\d?$/.test(trustProxyRaw)) trustProxy = Number(trustProxyRaw);
    else problems.push(`TRUST_PROXY must be false or the number of proxy hops (1-99), got "${trustProxyRaw}"`);
  }
  const mailFrom = blankToNull(env['MAIL_FROM']) ?? DEFAULT_MAIL_FROM;
  if (!/@[^\s@>]+\.?[^\s@>]*>?$/.test(mailFrom)) problems.push(`MAIL_FROM must be an address like "Kiln <no-reply@example.com>", got "${mailFrom}"`);
  const authJwtPrivateKey = blankToNull(env['AUTH_JWT_PRIVATE_KEY']);
  const auth = read((report) => parseAuthMode(env, report));
  const tiers = read((report) => parseUpperTiers(env['PLAN_UPPER_TIERS'], report));
  const webDistDir = blankToNull(env['WEB_DIST_DIR']);
  const payments = read((report) => parsePayments(env, report));
  const publicApiUrl = read((report) => parseUrl('PUBLIC_API_URL', env['PUBLIC_API_URL'], ['http:', 'https:'], report)) ?? `http://localhost:${port}`;
  const previewUrlTemplate = read((report) => parsePreviewTemplate(env['PREVIEW_URL_TEMPLATE'], port, report));
  const hosting = read((report) => parseHostingConfig(env, port, report));
  const databases = read((report) => parseDatabasesConfig(env, port, report));
  const previewIdleMinutes = read((report) =>
    parseWholeNumber('PREVIEW_IDLE_MINUTES', env['PREVIEW_IDLE_MINUTES'], { min: 1, max: MAX_PREVIEW_IDLE_MINUTES, fallback: DEFAULT_PREVIEW_IDLE_MINUTES, unit: 'minutes' }, report),
  );
  const sandboxLimits = read((report) => parseSandboxLimits(env, report));
  const sandboxEngine = read((report) => parseSandboxEngine(env, report));
  const repositoryImportTestOrigins = read((report) => parseRepositoryImportTestOrigins(env['REPOSITORY_IMPORT_TEST_ORIGINS'], nodeEnv, report));
  const previewTokenSecret = blankToNull(env['PREVIEW_TOKEN_SECRET']);
  if (previewTokenSecret !== null && previewTokenSecret.length < MIN_JWT_SECRET_LENGTH) {
    problems.push(`PREVIEW_TOKEN_SECRET must be at least ${MIN_JWT_SECRET_LENGTH} characters, got ${previewTokenSecret.length}`);
  }

  const ai = read((report) => parseAiProvider(env, report));
  const aiRepairRounds = read((report) => parseWholeNumber('AI_REPAIR_ROUNDS', env['AI_REPAIR_ROUNDS'], { min: 0, max: MAX_AI_REPAIR_ROUNDS, fallback: DEFAULT_AI_REPAIR_ROUNDS }, report));
  const aiRateLimitPerMinute = read((report) =>
    parseWholeNumber('AI_RATE_LIMIT_PER_MINUTE', env['AI_RATE_LIMIT_PER_MINUTE'], { min: 1, max: MAX_AI_RATE_LIMIT_PER_MINUTE, fallback: DEFAULT_AI_RATE_LIMIT_PER_MINUTE }, report),
  );
  const aiContextChars = read((report) =>
    parseWholeNumber('AI_CONTEXT_CHARS', env['AI_CONTEXT_CHARS'], { min: MIN_AI_CONTEXT_CHARS, max: MAX_AI_CONTEXT_CHARS, fallback: defaultAiContextChars(ai) }, report),
  );

  const geo = read((report) => parseGeoConfig(env, report));
  const marketing = read((report) => parseMarketingConfig(env, nodeEnv, report));
  const analytics = read((report) => parseAnalyticsConfig(env, report));
  const objectStore = read((report) => parseObjectStoreConfig(env, dataDir, report));

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    nodeEnv,
    logFormat,
    dataDir,
    databaseUrl,
    webOrigins,
    smtpUrl,
    trustProxy,
    mailFrom,
    authJwtPrivateKey,
    auth,
    upperTiers: tiers.upperTiers,
    plans: tiers.plans,
    webDistDir,
    payments,
    publicApiUrl: publicApiUrl.replace(/\/+$/, ''),
    previewUrlTemplate,
    hosting,
    databases,
    previewIdleMinutes,
    sandboxLimits,
    sandboxEngine,
    repositoryImportTestOrigins,
    previewTokenSecret,
    ai,
    aiRepairRounds,
    aiRateLimitPerMinute,
    aiContextChars,
    geo,
    marketing,
    analytics,
    objectStore,
  };
}

const MODEL_ID = /^[\w.:/@-]{1,200}$/;

function parseAiProvider(env: Env, report: Report): AiProviderConfig {
  const anthropicKey = blankToNull(env['ANTHROPIC_API_KEY']);
  const anthropicModel = blankToNull(env['ANTHROPIC_MODEL']);
  const openaiBase = blankToNull(env['OPENAI_BASE_URL']);
  const openaiKey = blankToNull(env['OPENAI_API_KEY']);
  const openaiModel = blankToNull(env['OPENAI_MODEL']);
  const openaiSet = openaiBase !== null || openaiKey !== null || openaiModel !== null;
  const offline: AiProviderConfig = { provider: 'offline' };
  const checkModel = (name: string, model: string | null) => {
    if (model !== null && !MODEL_ID.test(model)) report(`${name} must be a model id such as claude-sonnet-4-5 or gpt-4.1-mini (letters, digits, . _ : / @ -), got "${model}"`);
  };
  // Keys are never echoed: they are secrets.
  const checkKey = (name: string, key: string | null) => {
    if (key !== null && /\s/.test(key)) report(`${name} must not contain spaces or line breaks (check how it was pasted)`);
  };
  if (anthropicKey !== null && openaiSet) {
    report('ANTHROPIC_API_KEY and OPENAI_* are both set: configure one AI provider (Anthropic, or an OpenAI-compatible endpoint), or neither for the offline assistant');
    return offline;
  }
  if (anthropicModel !== null && anthropicKey === null) {
    report('ANTHROPIC_MODEL is set but ANTHROPIC_API_KEY is not: set the key too (or unset the model for the offline assistant)');
    return offline;
  }
  if (anthropicKey !== null) {
    checkKey('ANTHROPIC_API_KEY', anthropicKey);
    checkModel('ANTHROPIC_MODEL', anthropicModel);
    return { provider: 'anthropic', apiKey: anthropicKey, model: anthropicModel };
  }
  if (!openaiSet) return offline;
  checkKey('OPENAI_API_KEY', openaiKey);
  checkModel('OPENAI_MODEL', openaiModel);
  if (openaiBase === null && openaiKey === null) {
    report('OPENAI_MODEL is set but neither OPENAI_BASE_URL nor OPENAI_API_KEY is: set the endpoint (and its key, if it needs one)');
    return offline;
  }
  if (openaiModel === null) report('OPENAI_MODEL is required with OPENAI_BASE_URL or OPENAI_API_KEY (the endpoint\'s model id, e.g. gpt-4.1-mini or llama3.1)');
  const baseURL = openaiBase === null ? DEFAULT_OPENAI_BASE_URL : parseUrl('OPENAI_BASE_URL', openaiBase, ['http:', 'https:'], report);
  if (baseURL === null || openaiModel === null) return offline;
  return { provider: 'openai-compatible', name: endpointName(baseURL), baseURL: baseURL.replace(/\/+$/, ''), apiKey: openaiKey, model: openaiModel };
}

/** 'openai' for OpenAI itself, 'openrouter', 'ollama' (its default port), else the endpoint's host name. */
function endpointName(baseURL: string): string {
  const url = new URL(baseURL);
  if (url.hostname === 'api.openai.com') return 'openai';
  if (url.hostname.endsWith('openrouter.ai')) return 'openrouter';
  if (url.port === '11434') return 'ollama';
  return url.hostname;
}

function parsePreviewTemplate(raw: string | undefined, port: number, report: Report): string {
  const parsed = parsePreviewUrlTemplate(blankToNull(raw) ?? DEFAULT_PREVIEW_URL_TEMPLATE, port);
  if (parsed.ok) return parsed.value.template;
  report(parsed.problem);
  return DEFAULT_PREVIEW_URL_TEMPLATE.replace('{port}', String(port));
}


/**
 * A whole number between `min` and `max` from a variable; blank → `fallback`; anything else is
 * reported as "<NAME> must be a whole number[ of <unit>] between <min> and <max>, got "<text>"".
 */
function parseWholeNumber(
  name: string,
  raw: string | undefined,
  { min, max, fallback, unit }: { readonly min: number; readonly max: number; readonly fallback: number; readonly unit?: string },
  report: Report,
): number {
  const text = blankToNull(raw);
  if (text === null) return fallback;
  const value = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) {
    report(`${name} must be a whole number${unit ? ` of ${unit}` : ''} between ${min} and ${max}, got "${text}"`);
    return fallback;
  }
  return value;
}

const MIB = 1024 * 1024;

/** The per-sandbox limits; each has a range that keeps a sandbox usable and the machine safe. */
function parseSandboxLimits(env: Env, report: Report): AppConfig['sandboxLimits'] {
  const d = DEFAULT_SANDBOX_LIMITS;
  const whole = (name: string, min: number, max: number, fallback: number, unit?: string) =>
    parseWholeNumber(name, env[name], { min, max, fallback, ...(unit === undefined ? {} : { unit }) }, report);
  return {
    memoryBytes: whole('SANDBOX_MEMORY_MB', 256, 1_048_576, d.memoryBytes / MIB, 'MiB') * MIB,
    cpuShares: whole('SANDBOX_CPU_SHARES', 2, 262_144, d.cpuShares),
    processes: whole('SANDBOX_PROCESSES', 64, 1_000_000, d.processes),
    diskBytes: whole('SANDBOX_DISK_MB', 16, 10_485_760, d.diskBytes / MIB, 'MiB') * MIB,
    openFiles: whole('SANDBOX_OPEN_FILES', 256, 1_048_576, d.openFiles),
  };
}

/** Local OpenAI-compatible servers get the smaller default context (see aiContextChars). */
function defaultAiContextChars(ai: AiProviderConfig): number {
  const hosted = ai.provider !== 'openai-compatible' || ai.name === 'openai' || ai.name === 'openrouter';
  return hosted ? DEFAULT_AI_CONTEXT_CHARS : DEFAULT_LOCAL_AI_CONTEXT_CHARS;
}

function parsePayments(env: Env, report: Report): PaymentsMode {
  const secretKey = blankToNull(env['STRIPE_SECRET_KEY']);
  const webhookSecret = blankToNull(env['STRIPE_WEBHOOK_SECRET']);
  if (secretKey === null) {
    if (webhookSecret !== null) report('STRIPE_WEBHOOK_SECRET is set but STRIPE_SECRET_KEY is not: set both (Stripe) or neither (local test checkout)');
    return { kind: 'local' };
  }
  if (!/^(sk|rk)_(test|live)_\w+$/.test(secretKey)) report('STRIPE_SECRET_KEY must be a Stripe secret key (sk_test_…, sk_live_… or a restricted rk_… key)');
  if (webhookSecret === null) report('STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set (the webhook signing secret, whsec_…)');
  else if (!webhookSecret.startsWith('whsec_')) report('STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_…)');
  const price = (name: string): string => {
    const id = blankToNull(env[name]);
    if (id === null) {
      report(`${name} is required when STRIPE_SECRET_KEY is set (a Stripe price id, price_…)`);
      return '';
    }
    if (!id.startsWith('price_')) report(`${name} must be a Stripe price id (price_…), got "${id}"`);
    return id;
  };
  const pair = (names: { USD: string; INR: string }) => ({ USD: price(names.USD), INR: price(names.INR) });
  return {
    kind: 'stripe',
    secretKey,
    webhookSecret: webhookSecret ?? '',
    prices: {
      pro_monthly: pair(STRIPE_PRICE_VARIABLES.pro_monthly),
      pro_annual: pair(STRIPE_PRICE_VARIABLES.pro_annual),
      addon: pair(STRIPE_PRICE_VARIABLES.addon),
    },
  };
}

type Report = (problem: string) => void;

function blankToNull(raw: string | undefined): string | null {
  return raw === undefined || raw.trim() === '' ? null : raw.trim();
}

function parsePort(raw: string | undefined, report: Report): number {
  const text = blankToNull(raw);
  if (text === null) return DEFAULT_PORT;
  if (!/^\d+$/.test(text)) {
    report(`PORT must be an integer between ${MIN_PORT} and ${MAX_PORT}, got "${raw}"`);
    return DEFAULT_PORT;
  }
  const port = Number(text);
  if (port < MIN_PORT || port > MAX_PORT) {
    report(`PORT must be between ${MIN_PORT} and ${MAX_PORT}, got ${text}`);
    return DEFAULT_PORT;
  }
  return port;
}

function parseNodeEnv(raw: string | undefined, report: Report): NodeEnv {
  const text = blankToNull(raw);
  if (text === null) return 'development';
  if ((NODE_ENVS as readonly string[]).includes(text)) return text as NodeEnv;
  report(`NODE_ENV must be one of ${NODE_ENVS.join(', ')}, got "${text}"`);
  return 'development';
}

/** Production logs are JSON lines for a log collector; a developer's terminal gets readable lines. */
function parseLogFormat(raw: string | undefined, nodeEnv: NodeEnv, report: Report): LogFormat {
  const fallback: LogFormat = nodeEnv === 'production' ? 'json' : 'pretty';
  const text = blankToNull(raw);
  if (text === null) return fallback;
  if ((LOG_FORMATS as readonly string[]).includes(text)) return text as LogFormat;
  report(`LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}, got "${text}"`);
  return fallback;
}

/** A URL as text with its password hidden, so secrets never reach logs or error messages. */
export function redactUrl(url: URL): string {
  if (url.password === '') return url.toString();
  const copy = new URL(url.toString());
  copy.password = '***';
  return copy.toString();
}

function parseUrl(
  name: string,
  raw: string | undefined,
  protocols: readonly string[],
  report: Report,
  { hostRequired = true }: { hostRequired?: boolean } = {},
): string | null {
  const text = blankToNull(raw);
  if (text === null) return null;
  const expected = protocols.map((p) => `${p}//`).join(' or ');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The raw value may hold a password: never echo it.
    report(`${name} must be a ${expected} URL, got a value that is not a URL`);
    return null;
  }
  if (!protocols.includes(url.protocol)) {
    report(`${name} must be a ${expected} URL, got one starting with ${url.protocol}//`);
    return null;
  }
  if (hostRequired && url.hostname === '') {
    report(`${name} must name a host, got ${redactUrl(url)}`);
    return null;
  }
  return text;
}

function parseOrigins(raw: string | undefined, report: Report): readonly string[] {
  const text = blankToNull(raw);
  if (text === null) return DEFAULT_WEB_ORIGINS;
  const origins: string[] = [];
  for (const item of text.split(',').map((s) => s.trim())) {
    if (item === '') {
      report('WEB_ORIGIN must be a comma-separated list of origins without empty items');
      continue;
    }
    const origin = parseOrigin(item);
    if (origin === null) {
      report(`WEB_ORIGIN item "${item}" must be an http:// or https:// origin such as https://app.example.com (no path, query or '*')`);
      continue;
    }
    if (!origins.includes(origin)) origins.push(origin);
  }
  return origins.length > 0 ? origins : DEFAULT_WEB_ORIGINS;
}

/** 'https://App.example.com/' → 'https://app.example.com'; null for anything that is not an origin. */
function parseOrigin(item: string): string | null {
  let url: URL;
  try {
    url = new URL(item);
  } catch {
    return null;
  }
  const isHttp = url.protocol === 'http:' || url.protocol === 'https:';
  const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
  return isHttp && bare && url.hostname !== '' ? url.origin : null;
}

function parseAuthMode(env: Env, report: Report): AuthMode {
  const jwksUrl = blankToNull(env['SUPABASE_JWKS_URL']);
  const jwtSecret = blankToNull(env['SUPABASE_JWT_SECRET']);
  if (jwksUrl !== null && jwtSecret !== null) {
    report('SUPABASE_JWKS_URL and SUPABASE_JWT_SECRET are mutually exclusive: set one of them (external auth) or neither (built-in auth)');
    return { kind: 'builtin' };
  }
  if (jwksUrl !== null) {
    const url = parseUrl('SUPABASE_JWKS_URL', jwksUrl, ['https:', 'http:'], report);
    return url === null ? { kind: 'builtin' } : { kind: 'supabase-jwks', jwksUrl: url };
  }
  if (jwtSecret !== null) {
    if (jwtSecret.length < MIN_JWT_SECRET_LENGTH) {
      report(`SUPABASE_JWT_SECRET must be at least ${MIN_JWT_SECRET_LENGTH} characters, got ${jwtSecret.length}`);
      return { kind: 'builtin' };
    }
    return { kind: 'supabase-secret', jwtSecret };
  }
  return { kind: 'builtin' };
}

function parseUpperTiers(raw: string | undefined, report: Report): { upperTiers: readonly UpperTierConfig[]; plans: PlanCatalog } {
  const standard = { upperTiers: [], plans: PlanCatalog.standard() };
  const text = blankToNull(raw);
  if (text === null) return standard;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    report(`PLAN_UPPER_TIERS must be a JSON array of tiers: ${error instanceof Error ? error.message : String(error)}`);
    return standard;
  }
  if (!Array.isArray(parsed)) {
    report('PLAN_UPPER_TIERS must be a JSON array of tiers');
    return standard;
  }
  // The domain validates every field; only the shape it assumes (objects, string names) is checked here.
  const badItem = parsed.findIndex((item) => typeof item !== 'object' || item === null || Array.isArray(item));
  if (badItem >= 0) {
    report(`PLAN_UPPER_TIERS[${badItem}] must be an object`);
    return standard;
  }
  const badName = parsed.findIndex((item: Record<string, unknown>) => typeof item['name'] !== 'string');
  if (badName >= 0) {
    report(`PLAN_UPPER_TIERS upperTiers[${badName}].name: Upper tier needs a name`);
    return standard;
  }
  const tiers = parsed as UpperTierConfig[];
  const catalog = PlanCatalog.create(tiers);
  if (!catalog.ok) {
    report(`PLAN_UPPER_TIERS ${catalog.error.field}: ${catalog.error.message}`);
    return standard;
  }
  return { upperTiers: tiers, plans: catalog.value };
}

import { describe, expect, it } from '@jest/globals';
import { ConfigError, DEFAULT_WEB_ORIGINS, loadConfig } from './config.js';

/** The problems loadConfig reports for an environment (fails the test if it accepts it). */
function problems(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig — defaults', () => {
  it('gives every default for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      nodeEnv: 'development',
      dataDir: '.data',
      databaseUrl: null,
      webOrigins: ['http://localhost:5173', 'http://localhost:3000'],
      smtpUrl: null,
      authJwtPrivateKey: null,
      auth: { kind: 'builtin' },
      upperTiers: [],
    });
    expect(config.plans.list().map((p) => p.id)).toEqual(['free', 'pro_monthly', 'pro_annual']);
  });

  it('treats blank values as unset', () => {
    const blank = ['PORT', 'NODE_ENV', 'LOG_FORMAT', 'DATA_DIR', 'DATABASE_URL', 'WEB_ORIGIN', 'SMTP_URL', 'AUTH_JWT_PRIVATE_KEY', 'SUPABASE_JWKS_URL', 'SUPABASE_JWT_SECRET', 'PLAN_UPPER_TIERS', 'PREVIEW_URL_TEMPLATE', 'PREVIEW_IDLE_MINUTES', 'PREVIEW_TOKEN_SECRET', 'ANTHROPIC_API_KEY', 'ANTHROPIC_MODEL', 'OPENAI_BASE_URL', 'OPENAI_API_KEY', 'OPENAI_MODEL', 'AI_REPAIR_ROUNDS', 'AI_RATE_LIMIT_PER_MINUTE', 'AI_CONTEXT_CHARS', 'OBJECT_STORE', 'OBJECT_STORE_DIR', 'S3_BUCKET', 'S3_KEY_PREFIX'];
    expect(loadConfig(Object.fromEntries(blank.map((k) => [k, '  '])))).toEqual(loadConfig({}));
  });
});

describe('loadConfig — PORT', () => {
  it('reads a valid PORT', () => {
    expect(loadConfig({ PORT: '8080' }).port).toBe(8080);
    expect(loadConfig({ PORT: ' 1 ' }).port).toBe(1);
    expect(loadConfig({ PORT: '65535' }).port).toBe(65535);
  });

  it.each(['abc', '80.5', '-1', '1e3', '0x50', '3000abc'])('rejects the non-integer PORT %p', (value) => {
    expect(problems({ PORT: value })).toEqual([`PORT must be an integer between 1 and 65535, got "${value}"`]);
  });

  it.each(['0', '65536', '99999999999999999999'])('rejects the out-of-range PORT %p', (value) => {
    expect(problems({ PORT: value })).toEqual([`PORT must be between 1 and 65535, got ${value}`]);
  });
});

describe('loadConfig — NODE_ENV and DATA_DIR', () => {
  it.each(['development', 'test', 'production'] as const)('accepts NODE_ENV=%s', (value) => {
    expect(loadConfig({ NODE_ENV: value }).nodeEnv).toBe(value);
  });

  it('rejects any other NODE_ENV', () => {
    expect(problems({ NODE_ENV: 'staging' })).toEqual(['NODE_ENV must be one of development, test, production, got "staging"']);
  });

  it('reads DATA_DIR, trimmed', () => {
    expect(loadConfig({ DATA_DIR: ' /var/lib/kiln ' }).dataDir).toBe('/var/lib/kiln');
  });
});

describe('loadConfig — LOG_FORMAT', () => {
  it('defaults to readable lines in development and test, JSON lines in production', () => {
    expect(loadConfig({}).logFormat).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'development' }).logFormat).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'test' }).logFormat).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'production' }).logFormat).toBe('json');
  });

  it('takes an explicit choice in any mode', () => {
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadConfig({ NODE_ENV: 'production', LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'production', LOG_FORMAT: ' ' }).logFormat).toBe('json');
  });

  it('refuses anything else', () => {
    expect(problems({ LOG_FORMAT: 'text' })).toEqual(['LOG_FORMAT must be one of pretty, json, got "text"']);
  });
});

describe('loadConfig — DATABASE_URL', () => {
  it.each(['postgres://kiln:secret@db:5432/kiln', 'postgresql://localhost/kiln', 'postgres:///kiln?host=/run/postgresql'])('accepts %p', (url) => {
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
  });

  it('rejects another scheme without echoing the value', () => {
    const [problem] = problems({ DATABASE_URL: 'mysql://root:hunter2@db/kiln' });
    expect(problem).toBe('DATABASE_URL must be a postgres:// or postgresql:// URL, got one starting with mysql://');
    expect(problem).not.toContain('hunter2');
  });

  it('rejects text that is not a URL without echoing it', () => {
    const [problem] = problems({ DATABASE_URL: 'hunter2' });
    expect(problem).toBe('DATABASE_URL must be a postgres:// or postgresql:// URL, got a value that is not a URL');
  });

});

describe('loadConfig — WEB_ORIGIN', () => {
  it('reads a comma-separated list, normalised to origins, without duplicates', () => {
    expect(loadConfig({ WEB_ORIGIN: 'https://App.Example.com/, http://localhost:5173 ,https://app.example.com' }).webOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
  });

  it('defaults to the local web and API origins', () => {
    expect(loadConfig({}).webOrigins).toEqual(DEFAULT_WEB_ORIGINS);
  });

  it.each(['*', 'app.example.com', 'ftp://example.com', 'https://example.com/app', 'https://example.com?x=1'])('rejects %p', (item) => {
    expect(problems({ WEB_ORIGIN: item })).toEqual([
      `WEB_ORIGIN item "${item}" must be an http:// or https:// origin such as https://app.example.com (no path, query or '*')`,
    ]);
  });

  it('rejects empty items', () => {
    expect(problems({ WEB_ORIGIN: 'https://a.example.com,,https://b.example.com' })).toEqual([
      'WEB_ORIGIN must be a comma-separated list of origins without empty items',
    ]);
  });
});

describe('loadConfig — SMTP_URL', () => {
  it.each(['smtp://localhost:1025', 'smtps://user:pass@mail.example.com:465'])('accepts %p', (url) => {
    expect(loadConfig({ SMTP_URL: url }).smtpUrl).toBe(url);
  });

  it('rejects a URL without a host', () => {
    expect(problems({ SMTP_URL: 'smtp:///relay' })).toEqual(['SMTP_URL must name a host, got smtp:///relay']);
  });

  it('rejects another scheme', () => {
    expect(problems({ SMTP_URL: 'http://mail.example.com' })).toEqual([
      'SMTP_URL must be a smtp:// or smtps:// URL, got one starting with http://',
    ]);
  });
});

describe('loadConfig — auth settings', () => {
  const secret = 'x'.repeat(40);

  it('keeps AUTH_JWT_PRIVATE_KEY as given', () => {
    const key = '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----';
    expect(loadConfig({ AUTH_JWT_PRIVATE_KEY: key }).authJwtPrivateKey).toBe(key);
  });

  it('SUPABASE_JWKS_URL selects external auth verified by JWKS', () => {
    const url = 'https://abc.supabase.co/auth/v1/.well-known/jwks.json';
    expect(loadConfig({ SUPABASE_JWKS_URL: url }).auth).toEqual({ kind: 'supabase-jwks', jwksUrl: url });
  });

  it('SUPABASE_JWT_SECRET selects external auth verified by the shared secret', () => {
    expect(loadConfig({ SUPABASE_JWT_SECRET: secret }).auth).toEqual({ kind: 'supabase-secret', jwtSecret: secret });
  });

  it('refuses both at once', () => {
    expect(problems({ SUPABASE_JWKS_URL: 'https://abc.supabase.co/jwks', SUPABASE_JWT_SECRET: secret })).toEqual([
      'SUPABASE_JWKS_URL and SUPABASE_JWT_SECRET are mutually exclusive: set one of them (external auth) or neither (built-in auth)',
    ]);
  });

  it('refuses a JWKS URL that is not http(s)', () => {
    expect(problems({ SUPABASE_JWKS_URL: 'file:///etc/jwks.json' })).toEqual([
      'SUPABASE_JWKS_URL must be a https:// or http:// URL, got one starting with file://',
    ]);
  });

  it('refuses a short JWT secret without echoing it', () => {
    expect(problems({ SUPABASE_JWT_SECRET: 'short-secret' })).toEqual(['SUPABASE_JWT_SECRET must be at least 32 characters, got 12']);
  });
});

describe('loadConfig — PLAN_UPPER_TIERS', () => {
  const basic = {
    id: 'basic',
    name: 'Basic',
    interval: 'monthly',
    priceUsdMinor: 1000,
    priceInrMinor: 99900,
    promptsPerMonth: 10,
    privateProjects: 5,
    publishedProjects: 1,
  };

  it('adds valid tiers to the catalog', () => {
    const config = loadConfig({ PLAN_UPPER_TIERS: JSON.stringify([basic]) });
    expect(config.upperTiers).toEqual([basic]);
    expect(config.plans.find('basic')?.name).toBe('Basic');
  });

  it('reports invalid JSON', () => {
    expect(problems({ PLAN_UPPER_TIERS: '[{' })[0]).toMatch(/^PLAN_UPPER_TIERS must be a JSON array of tiers: /);
  });

  it('reports a non-array', () => {
    expect(problems({ PLAN_UPPER_TIERS: '{"id":"basic"}' })).toEqual(['PLAN_UPPER_TIERS must be a JSON array of tiers']);
  });

  it('reports a non-object item', () => {
    expect(problems({ PLAN_UPPER_TIERS: '[1]' })).toEqual(['PLAN_UPPER_TIERS[0] must be an object']);
  });

  it('reports a missing or non-text name', () => {
    expect(problems({ PLAN_UPPER_TIERS: JSON.stringify([{ ...basic, name: 7 }]) })).toEqual([
      'PLAN_UPPER_TIERS upperTiers[0].name: Upper tier needs a name',
    ]);
  });

  it("reports the domain's validation with the field it names", () => {
    expect(problems({ PLAN_UPPER_TIERS: JSON.stringify([{ ...basic, id: 'gold' }]) })).toEqual([
      'PLAN_UPPER_TIERS upperTiers[0].id: Upper tier id must be one of basic, starter, premium',
    ]);
    expect(problems({ PLAN_UPPER_TIERS: JSON.stringify([basic, { ...basic, priceUsdMinor: 9.99 }]) })).toEqual([
      'PLAN_UPPER_TIERS upperTiers[1].id: Upper tier basic is configured twice',
    ]);
    expect(problems({ PLAN_UPPER_TIERS: JSON.stringify([{ ...basic, priceUsdMinor: 9.99 }]) })).toEqual([
      'PLAN_UPPER_TIERS upperTiers[0].priceUsdMinor: Prices are non-negative integer minor units',
    ]);
  });
});

describe('loadConfig — object storage (OBJECT_STORE, OBJECT_STORE_DIR, S3_*)', () => {
  it('keeps objects on the filesystem under DATA_DIR/objects by default', () => {
    expect(loadConfig({}).objectStore).toEqual({ kind: 'filesystem', dir: '.data/objects' });
    expect(loadConfig({ DATA_DIR: '/var/lib/kiln' }).objectStore).toEqual({ kind: 'filesystem', dir: '/var/lib/kiln/objects' });
    expect(loadConfig({ OBJECT_STORE_DIR: '/srv/objects' }).objectStore).toEqual({ kind: 'filesystem', dir: '/srv/objects' });
  });

  it('reads an S3 store', () => {
    expect(loadConfig({ OBJECT_STORE: 's3', S3_BUCKET: 'kiln', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'true' }).objectStore).toMatchObject({
      kind: 's3',
      bucket: 'kiln',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
    });
  });

  it('refuses to start with an unknown store, or s3 without a bucket', () => {
    expect(problems({ OBJECT_STORE: 'ftp' })).toEqual(['OBJECT_STORE must be one of filesystem, s3, got "ftp"']);
    expect(problems({ OBJECT_STORE: 's3' })).toEqual(['S3_BUCKET is required when OBJECT_STORE is s3 (the bucket that holds the objects)']);
    expect(problems({ OBJECT_STORE: 's3', S3_BUCKET: 'kiln', S3_FORCE_PATH_STYLE: '1' })).toEqual(['S3_FORCE_PATH_STYLE must be true or false, got "1"']);
  });
});

describe('loadConfig — one message for every problem', () => {
  it('lists all problems in one ConfigError', () => {
    const env = { PORT: 'x', NODE_ENV: 'prod', SMTP_URL: 'mailto:a@b', PLAN_UPPER_TIERS: '{' };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      const message = (error as Error).message;
      expect(message.split('\n')[0]).toBe('Invalid configuration (4 problems):');
      expect(message).toContain('  - PORT must be an integer');
      expect(message).toContain('  - NODE_ENV must be one of');
      expect(message).toContain('  - SMTP_URL must be a smtp:// or smtps:// URL');
      expect(message).toContain('  - PLAN_UPPER_TIERS must be a JSON array');
    }
  });
});

describe('TRUST_PROXY', () => {
  it('is off by default and takes a hop count', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
  });

  it('refuses anything else with a clear message', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow('TRUST_PROXY must be false or the number of proxy hops (1-99), got "yes"');
  });
});

describe('loadConfig — payments', () => {
  const PRICES = {
    STRIPE_PRICE_PRO_MONTHLY_USD: 'price_a',
    STRIPE_PRICE_PRO_MONTHLY_INR: 'price_b',
    STRIPE_PRICE_PRO_ANNUAL_USD: 'price_c',
    STRIPE_PRICE_PRO_ANNUAL_INR: 'price_d',
    STRIPE_PRICE_ADDON_USD: 'price_e',
    STRIPE_PRICE_ADDON_INR: 'price_f',
  };

  it('defaults to the local test checkout and the API origin on PORT', () => {
    expect(loadConfig({ PORT: '4000' })).toMatchObject({ payments: { kind: 'local' }, publicApiUrl: 'http://localhost:4000' });
  });

  it('reads Stripe with its webhook secret and every price', () => {
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_x', ...PRICES }).payments).toEqual({
      kind: 'stripe',
      secretKey: 'sk_test_abc',
      webhookSecret: 'whsec_x',
      prices: { pro_monthly: { USD: 'price_a', INR: 'price_b' }, pro_annual: { USD: 'price_c', INR: 'price_d' }, addon: { USD: 'price_e', INR: 'price_f' } },
    });
  });

  it('lists every missing or malformed Stripe setting', () => {
    const found = problems({ STRIPE_SECRET_KEY: 'pk_test_abc', ...PRICES, STRIPE_PRICE_ADDON_INR: 'prod_1', STRIPE_PRICE_ADDON_USD: '' });
    expect(found).toEqual([
      'STRIPE_SECRET_KEY must be a Stripe secret key (sk_test_…, sk_live_… or a restricted rk_… key)',
      'STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set (the webhook signing secret, whsec_…)',
      'STRIPE_PRICE_ADDON_USD is required when STRIPE_SECRET_KEY is set (a Stripe price id, price_…)',
      'STRIPE_PRICE_ADDON_INR must be a Stripe price id (price_…), got "prod_1"',
    ]);
    expect(problems({ STRIPE_WEBHOOK_SECRET: 'whsec_x' })).toEqual([
      'STRIPE_WEBHOOK_SECRET is set but STRIPE_SECRET_KEY is not: set both (Stripe) or neither (local test checkout)',
    ]);
  });
});

describe('loadConfig — live preview', () => {
  it('defaults to *.preview.localhost on PORT, 10 idle minutes and a per-process token key', () => {
    expect(loadConfig({ PORT: '4000' })).toMatchObject({
      previewUrlTemplate: 'http://{id}.preview.localhost:4000',
      previewIdleMinutes: 10,
      previewTokenSecret: null,
    });
  });

  it('reads PREVIEW_URL_TEMPLATE, filling in {port}', () => {
    expect(loadConfig({ PREVIEW_URL_TEMPLATE: 'https://{id}.preview.example.com' }).previewUrlTemplate).toBe('https://{id}.preview.example.com');
    expect(loadConfig({ PORT: '8080', PREVIEW_URL_TEMPLATE: 'http://{id}.kiln.localhost:{port}/' }).previewUrlTemplate).toBe('http://{id}.kiln.localhost:8080');
  });

  it.each([
    ['{id}.preview.localhost', 'must be an http:// or https:// URL such as http://{id}.preview.localhost:{port}'],
    ['https://preview.example.com', 'must contain {id} exactly once'],
    ['https://{id}.{id}.example.com', 'must contain {id} exactly once'],
    ['ftp://{id}.example.com', 'must be an http:// or https:// URL'],
    ['https://example.com/{id}', 'must be an origin (no path, query or fragment)'],
    ['https://example.{id}', 'must have {id} as a whole label of the host name, before its domain ({id}.preview.example.com)'],
    ['https://app-{id}.example.com', 'must have {id} as a whole label of the host name, before its domain ({id}.preview.example.com)'],
    ['https://{id}.example.com/preview', 'must be an origin (no path, query or fragment)'],
    ['https://user:pw@{id}.example.com', 'must not contain credentials'],
    ['https://{port}.{id}.example.com', 'may use {port} only as the port (…:{port})'],
    ['http://{id}.preview.example.com', 'must be https:// unless the host is under .localhost (the preview cookie is Secure)'],
  ])('rejects the template %p', (template, why) => {
    expect(problems({ PREVIEW_URL_TEMPLATE: template })).toEqual([`PREVIEW_URL_TEMPLATE ${why}, got "${template}"`]);
  });

  it('reads PREVIEW_IDLE_MINUTES between 1 and 1440', () => {
    expect(loadConfig({ PREVIEW_IDLE_MINUTES: '1' }).previewIdleMinutes).toBe(1);
    expect(loadConfig({ PREVIEW_IDLE_MINUTES: '1440' }).previewIdleMinutes).toBe(1440);
    for (const value of ['0', '1441', '2.5', 'ten', '-3']) {
      expect(problems({ PREVIEW_IDLE_MINUTES: value })).toEqual([
        `PREVIEW_IDLE_MINUTES must be a whole number of minutes between 1 and 1440, got "${value}"`,
      ]);
    }
  });

  it('needs a PREVIEW_TOKEN_SECRET of 32+ characters, never echoing it', () => {
    expect(loadConfig({ PREVIEW_TOKEN_SECRET: 'x'.repeat(32) }).previewTokenSecret).toBe('x'.repeat(32));
    expect(problems({ PREVIEW_TOKEN_SECRET: 'short-secret' })).toEqual(['PREVIEW_TOKEN_SECRET must be at least 32 characters, got 12']);
  });
});

describe('loadConfig — AI provider', () => {
  it('is the offline assistant with 2 repair rounds by default', () => {
    expect(loadConfig({})).toMatchObject({ ai: { provider: 'offline' }, aiRepairRounds: 2 });
  });

  it('ANTHROPIC_API_KEY selects Anthropic, with ANTHROPIC_MODEL or the adapter default', () => {
    expect(loadConfig({ ANTHROPIC_API_KEY: 'sk-ant-test' }).ai).toEqual({ provider: 'anthropic', apiKey: 'sk-ant-test', model: null });
    expect(loadConfig({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_MODEL: 'claude-opus-4-1' }).ai).toMatchObject({ model: 'claude-opus-4-1' });
  });

  it('OPENAI_BASE_URL (+ key, model) selects an OpenAI-compatible endpoint named after its host', () => {
    expect(loadConfig({ OPENAI_BASE_URL: 'http://localhost:11434/v1/', OPENAI_MODEL: 'llama3.1' }).ai).toEqual({
      provider: 'openai-compatible',
      name: 'ollama',
      baseURL: 'http://localhost:11434/v1',
      apiKey: null,
      model: 'llama3.1',
    });
    expect(loadConfig({ OPENAI_BASE_URL: 'https://openrouter.ai/api/v1', OPENAI_API_KEY: 'sk-or-1', OPENAI_MODEL: 'anthropic/claude-sonnet-4.5' }).ai).toMatchObject({
      name: 'openrouter',
      apiKey: 'sk-or-1',
    });
    // A key alone means OpenAI itself.
    expect(loadConfig({ OPENAI_API_KEY: 'sk-1', OPENAI_MODEL: 'gpt-4.1-mini' }).ai).toMatchObject({ name: 'openai', baseURL: 'https://api.openai.com/v1' });
  });

  it('reports every inconsistent AI setting clearly, never echoing a key', () => {
    expect(problems({ ANTHROPIC_API_KEY: 'sk-ant-secret', OPENAI_MODEL: 'gpt-4.1' })).toEqual([
      'ANTHROPIC_API_KEY and OPENAI_* are both set: configure one AI provider (Anthropic, or an OpenAI-compatible endpoint), or neither for the offline assistant',
    ]);
    expect(problems({ ANTHROPIC_MODEL: 'claude-sonnet-4-5' })).toEqual([
      'ANTHROPIC_MODEL is set but ANTHROPIC_API_KEY is not: set the key too (or unset the model for the offline assistant)',
    ]);
    expect(problems({ ANTHROPIC_API_KEY: 'sk-ant secret' })).toEqual(['ANTHROPIC_API_KEY must not contain spaces or line breaks (check how it was pasted)']);
    expect(problems({ OPENAI_BASE_URL: 'https://api.example.com/v1' })).toEqual([
      "OPENAI_MODEL is required with OPENAI_BASE_URL or OPENAI_API_KEY (the endpoint's model id, e.g. gpt-4.1-mini or llama3.1)",
    ]);
    expect(problems({ OPENAI_MODEL: 'gpt-4.1' })).toEqual([
      'OPENAI_MODEL is set but neither OPENAI_BASE_URL nor OPENAI_API_KEY is: set the endpoint (and its key, if it needs one)',
    ]);
    expect(problems({ OPENAI_BASE_URL: 'ftp://models.example.com', OPENAI_MODEL: 'm' })).toEqual(['OPENAI_BASE_URL must be a http:// or https:// URL, got one starting with ftp://']);
    expect(problems({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_MODEL: 'bad model' })[0]).toMatch(/^ANTHROPIC_MODEL must be a model id/);
    for (const message of problems({ ANTHROPIC_API_KEY: 'sk-ant secret', OPENAI_API_KEY: 'sk-openai-secret' })) expect(message).not.toContain('secret');
  });

  it('reads AI_CONTEXT_CHARS (4000-2000000); the default is 200 000, or 24 000 for a local OpenAI-compatible server', () => {
    expect(loadConfig({}).aiContextChars).toBe(200_000);
    expect(loadConfig({ ANTHROPIC_API_KEY: 'sk-ant-test' }).aiContextChars).toBe(200_000);
    expect(loadConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'gpt-4o' }).aiContextChars).toBe(200_000);
    expect(loadConfig({ OPENAI_BASE_URL: 'http://localhost:11434/v1', OPENAI_MODEL: 'llama3.2' }).aiContextChars).toBe(24_000);
    expect(loadConfig({ OPENAI_BASE_URL: 'http://localhost:11434/v1', OPENAI_MODEL: 'llama3.2', AI_CONTEXT_CHARS: '400000' }).aiContextChars).toBe(400_000);
    for (const value of ['3999', '2000001', '1e5', 'lots']) {
      expect(problems({ AI_CONTEXT_CHARS: value })).toEqual([`AI_CONTEXT_CHARS must be a whole number between 4000 and 2000000, got "${value}"`]);
    }
  });

  it('reads AI_RATE_LIMIT_PER_MINUTE between 1 and 10000 (default 30)', () => {
    expect(loadConfig({}).aiRateLimitPerMinute).toBe(30);
    expect(loadConfig({ AI_RATE_LIMIT_PER_MINUTE: '1' }).aiRateLimitPerMinute).toBe(1);
    expect(loadConfig({ AI_RATE_LIMIT_PER_MINUTE: '10000' }).aiRateLimitPerMinute).toBe(10_000);
    for (const value of ['0', '10001', '-1', '2.5', 'many']) {
      expect(problems({ AI_RATE_LIMIT_PER_MINUTE: value })).toEqual([`AI_RATE_LIMIT_PER_MINUTE must be a whole number between 1 and 10000, got "${value}"`]);
    }
  });

  it('reads AI_REPAIR_ROUNDS between 0 and 5', () => {
    expect(loadConfig({ AI_REPAIR_ROUNDS: '0' }).aiRepairRounds).toBe(0);
    expect(loadConfig({ AI_REPAIR_ROUNDS: '5' }).aiRepairRounds).toBe(5);
    for (const value of ['6', '-1', '1.5', 'two']) {
      expect(problems({ AI_REPAIR_ROUNDS: value })).toEqual([`AI_REPAIR_ROUNDS must be a whole number between 0 and 5, got "${value}"`]);
    }
  });
});

describe('loadConfig — SANDBOX_ENGINE and the Docker engine', () => {
  it('defaults to the local host (bubblewrap), needing nothing else', () => {
    expect(loadConfig({}).sandboxEngine).toEqual({ kind: 'local' });
  });

  it('reads the Docker engine with its defaults, and every setting given', () => {
    expect(loadConfig({ SANDBOX_ENGINE: 'docker' }).sandboxEngine).toEqual({ kind: 'docker', dockerHost: 'unix:///var/run/docker.sock', image: null, runtime: 'runsc', pauseIdleSeconds: 60 });
    expect(
      loadConfig({ SANDBOX_ENGINE: 'docker', DOCKER_HOST: 'tcp://engine-1:2375', SANDBOX_IMAGE: 'registry.example.com/kiln-sandbox:abc123', SANDBOX_RUNTIME: 'runc', SANDBOX_PAUSE_IDLE_SECONDS: '30' }).sandboxEngine,
    ).toEqual({ kind: 'docker', dockerHost: 'tcp://engine-1:2375', image: 'registry.example.com/kiln-sandbox:abc123', runtime: 'runc', pauseIdleSeconds: 30 });
  });

  it('refuses an unknown engine, a DOCKER_HOST it cannot reach that way, a bad image, runtime or pause', () => {
    expect(problems({ SANDBOX_ENGINE: 'podman' })).toEqual(['SANDBOX_ENGINE must be local or docker, got "podman"']);
    expect(problems({ SANDBOX_ENGINE: 'docker', DOCKER_HOST: 'ssh://engine' })).toEqual(['DOCKER_HOST must be unix:///path/to/docker.sock or tcp://host:port, got "ssh://engine"']);
    expect(problems({ SANDBOX_ENGINE: 'docker', SANDBOX_IMAGE: 'Kiln Sandbox' })).toEqual(['SANDBOX_IMAGE must be an image reference (registry/name:tag), got "Kiln Sandbox"']);
    expect(problems({ SANDBOX_ENGINE: 'docker', SANDBOX_RUNTIME: 'run sc' })).toEqual(['SANDBOX_RUNTIME must be a runtime\'s name such as runsc, got "run sc"']);
    expect(problems({ SANDBOX_ENGINE: 'docker', SANDBOX_PAUSE_IDLE_SECONDS: '0' })).toEqual(['SANDBOX_PAUSE_IDLE_SECONDS must be a whole number of seconds from 1 to 86400, got "0"']);
    expect(problems({ SANDBOX_ENGINE: 'docker', SANDBOX_PAUSE_IDLE_SECONDS: '1.5' })).toHaveLength(1);
  });
});

import { describe, expect, it } from '@jest/globals';
import { DEFAULT_DATABASE_PLAN_LIMITS, DEFAULT_REALTIME_LIMITS, DEFAULT_STORAGE_PLAN_LIMITS } from '@kiln/domain';
import { loadConfig } from '../config.js';
import { dataUrlFor, parseDatabasesConfig } from './databases-config.js';

const parse = (env: Record<string, string>) => {
  const problems: string[] = [];
  const config = parseDatabasesConfig(env, 3000, (p) => problems.push(p));
  return { config, problems };
};

describe('databases config', () => {
  it('defaults: the local provider, the data origin under data.localhost, generated key, default limits', () => {
    const { config, problems } = parse({});
    expect(problems).toEqual([]);
    expect(config).toEqual({ provider: 'local', neon: null, dataUrlTemplate: 'http://{ref}.data.localhost:3000', secretsKey: null, limits: DEFAULT_DATABASE_PLAN_LIMITS, storage: DEFAULT_STORAGE_PLAN_LIMITS, realtime: DEFAULT_REALTIME_LIMITS });
    expect(dataUrlFor(config.dataUrlTemplate, 'abcdefghij0123456789')).toBe('http://abcdefghij0123456789.data.localhost:3000');
    expect(loadConfig({ NODE_ENV: 'test' }).databases.provider).toBe('local');
  });

  it('reads the realtime caps and refuses nonsense', () => {
    const { config, problems } = parse({ REALTIME_SOCKETS_PER_USER: '10', REALTIME_SOCKETS_PER_PROJECT: '50' });
    expect(problems).toEqual([]);
    expect(config.realtime).toEqual({ ...DEFAULT_REALTIME_LIMITS, socketsPerUser: 10, socketsPerProject: 50 });
    expect(parse({ REALTIME_SOCKETS_PER_USER: '0' }).problems).toEqual(['REALTIME_SOCKETS_PER_USER must be a whole number between 1 and 100000, got "0"']);
    expect(parse({ REALTIME_SOCKETS_PER_PROJECT: 'lots' }).problems).toEqual(['REALTIME_SOCKETS_PER_PROJECT must be a whole number between 1 and 1000000, got "lots"']);
  });

  it('reads Neon, a template, a key and limits', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const { config, problems } = parse({
      DATABASE_PROVIDER: 'neon',
      NEON_API_KEY: 'napi_x',
      NEON_API_URL: 'http://127.0.0.1:9999/api/v2/',
      DATA_URL_TEMPLATE: 'https://{ref}.data.example.com',
      DATABASE_SECRETS_KEY: key,
      DATABASE_FREE_SIZE_MB: '50',
      DATABASE_PAID_CONNECTIONS: '20',
      DATABASE_STATEMENT_TIMEOUT_MS: '2000',
    });
    expect(problems).toEqual([]);
    expect(config.neon).toEqual({ apiKey: 'napi_x', apiUrl: 'http://127.0.0.1:9999/api/v2' });
    expect(config.dataUrlTemplate).toBe('https://{ref}.data.example.com');
    expect(config.secretsKey).toBe(key);
    expect(config.limits.free).toEqual({ sizeMb: 50, connections: 3, statementTimeoutMs: 2000 });
    expect(config.limits.paid).toEqual({ sizeMb: 1000, connections: 20, statementTimeoutMs: 2000 });
  });

  it.each([
    [{ DATABASE_PROVIDER: 'mysql' }, 'DATABASE_PROVIDER'],
    [{ DATABASE_PROVIDER: 'neon' }, 'NEON_API_KEY'],
    [{ NEON_API_KEY: 'x' }, 'DATABASE_PROVIDER is not neon'],
    [{ DATABASE_PROVIDER: 'neon', NEON_API_KEY: 'x', NEON_API_URL: 'ftp://x' }, 'NEON_API_URL'],
    [{ DATA_URL_TEMPLATE: 'http://data.example.com' }, 'DATA_URL_TEMPLATE'],
    [{ DATA_URL_TEMPLATE: 'http://x.{ref}.example.com' }, 'DATA_URL_TEMPLATE'],
    [{ DATA_URL_TEMPLATE: 'http://{ref}.example.com/path' }, 'DATA_URL_TEMPLATE'],
    [{ DATA_URL_TEMPLATE: 'javascript://{ref}.x' }, 'DATA_URL_TEMPLATE'],
    [{ DATABASE_SECRETS_KEY: 'c2hvcnQ=' }, 'DATABASE_SECRETS_KEY'],
    [{ DATABASE_FREE_CONNECTIONS: '0' }, 'DATABASE_FREE_CONNECTIONS'],
    [{ DATABASE_PAID_SIZE_MB: '-5' }, 'DATABASE_PAID_SIZE_MB'],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: '10' }, 'DATABASE_STATEMENT_TIMEOUT_MS'],
    [{ STORAGE_FREE_QUOTA_MB: '0' }, 'STORAGE_FREE_QUOTA_MB'],
    [{ STORAGE_PAID_QUOTA_MB: 'lots' }, 'STORAGE_PAID_QUOTA_MB'],
    [{ STORAGE_MAX_FILE_MB: '6000' }, 'STORAGE_MAX_FILE_MB'],
  ])('refuses %j', (env, mentioned) => {
    const { problems } = parse(env as Record<string, string>);
    expect(problems.join('\n')).toContain(mentioned);
    expect(() => loadConfig({ NODE_ENV: 'test', ...env })).toThrow(mentioned);
  });

  it('reads the storage quotas per plan and the file cap, in MB', () => {
    const { config } = parse({ STORAGE_FREE_QUOTA_MB: '20', STORAGE_PAID_QUOTA_MB: '2000', STORAGE_MAX_FILE_MB: '5' });
    expect(config.storage).toEqual({ free: { quotaBytes: 20 * 1024 * 1024 }, paid: { quotaBytes: 2000 * 1024 * 1024 }, maxFileBytes: 5 * 1024 * 1024 });
    expect(parse({}).config.storage).toEqual({ free: { quotaBytes: 500 * 1024 * 1024 }, paid: { quotaBytes: 10240 * 1024 * 1024 }, maxFileBytes: 50 * 1024 * 1024 });
  });

  it('never echoes the Neon key or the secrets key in a problem', () => {
    const { problems } = parse({ DATABASE_PROVIDER: 'neon', NEON_API_KEY: 'napi secret', DATABASE_SECRETS_KEY: 'not-base64-secret!!' });
    expect(problems.join('\n')).not.toContain('secret');
  });
});

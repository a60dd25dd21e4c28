import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AuthClient, type GoTrueClient } from '@supabase/auth-js';
import type { AccessTokenVerifier } from '@kiln/domain';
import { FixedClock, InMemorySandboxHost } from '@kiln/domain/testing';
import request from 'supertest';
import { createApp } from '../../bootstrap.js';
import { inMemoryHosting } from '../../testing/e2e.js';
import { type AppConfig, type Env, loadConfig } from '../../config.js';
import { inMemoryAuthStores } from '../../testing/in-memory-auth-stores.js';
import { InMemoryPersistenceModule } from '../../testing/in-memory-persistence.module.js';
import { ACCESS_TOKEN_VERIFIER, MAIL_OUTBOX, type MailOutbox } from '../../tokens.js';
import { type AuthModuleOptions, AuthModule } from '../auth.module.js';

/**
 * The whole application (createApp: helmet, CORS, global guard, filter and pipe) with the
 * built-in auth over in-memory stores, listening on a free local port. The clock is fixed (it
 * starts at the real time, because auth-js compares expires_at with Date.now()) and moves only
 * when a test advances it; mail stays in the in-memory outbox.
 */
export interface AuthTestApp {
  readonly app: NestExpressApplication;
  readonly config: AppConfig;
  readonly clock: FixedClock;
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly verifier: AccessTokenVerifier;
  http(): ReturnType<typeof request>;
  /** A fresh auth-js client pointed at /auth/v1, as a browser app would create it. */
  client(): GoTrueClient;
  /** The six-digit code of the newest mail to `email`, or null. */
  latestCode(email: string): Promise<string | null>;
  mailCount(email: string): Promise<number>;
  /** Moves the clock 5 minutes: every per-IP token bucket is full again. */
  refillRateLimits(): void;
  close(): Promise<void>;
}

export async function startAuthApp(options: { env?: Env; auth?: Partial<AuthModuleOptions> } = {}): Promise<AuthTestApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'kiln-auth-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, ...options.env });
  const clock = new FixedClock(new Date(Math.floor(Date.now() / 1000) * 1000));
  const app = await createApp(config, {
    persistence: InMemoryPersistenceModule.forRoot(),
    auth: AuthModule.register({ stores: inMemoryAuthStores, ...options.auth }),
    sandboxHost: new InMemorySandboxHost(clock),
    hosting: inMemoryHosting(),
    clock,
  });
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const outbox = app.get<MailOutbox>(MAIL_OUTBOX, { strict: false });
  return {
    app,
    config,
    clock,
    url,
    verifier: app.get<AccessTokenVerifier>(ACCESS_TOKEN_VERIFIER, { strict: false }),
    http: () => request(url),
    client: () =>
      new AuthClient({ url: `${url}/auth/v1`, fetch: (...args) => fetch(...args), persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }),
    latestCode: async (email) => {
      const [newest] = await outbox.list(email);
      return newest ? (/\b(\d{6})\b/.exec(newest.text)?.[1] ?? null) : null;
    },
    mailCount: async (email) => (await outbox.list(email)).length,
    refillRateLimits: () => clock.advance(5 * 60_000),
    close: async () => {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
/** A fresh address per test, so tests never share accounts or cooldowns. */
export const freshEmail = (label = 'user'): string => `${label}-${Date.now().toString(36)}-${(counter += 1)}@example.com`;

export const PASSWORD = 'correct horse battery';

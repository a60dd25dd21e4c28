import { randomBytes, randomUUID } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ProfileRepository } from '@kiln/domain';
import {
  InMemoryCertificateAuthority,
  InMemoryDatabaseProvisioner,
  InMemorySchemaMigrator,
  InMemoryDnsResolver,
  InMemoryHostingProvider,
  InMemorySandboxHost,
  InMemorySiteScreenshotter,
} from '@kiln/domain/testing';
import type { HostingAdapters } from '../hosting/hosting.module.js';
import type { DatabaseAdapters } from '../databases/databases.module.js';
import request from 'supertest';
import { type AppParts, createApp } from '../bootstrap.js';
import { type AppConfig, type Env, loadConfig } from '../config.js';
import { DEFAULT_TEST_DATABASE_URL } from '@kiln/adapters/testing';
import type { DataSource } from 'typeorm';
import { POSTGRES_DATA_SOURCE, PostgresPersistenceModule } from '../persistence/postgres-persistence.module.js';
import { PROFILE_REPOSITORY } from '../tokens.js';
import { InMemoryPersistenceModule } from './in-memory-persistence.module.js';
import { TestAccessTokenVerifier, mintTestToken } from './test-access-token-verifier.js';

/**
 * E2E harness: the real application from createApp, listening on a free local port, with the
 * test AccessTokenVerifier and an InMemorySandboxHost, on a real PostgreSQL (DATABASE_URL, default
 * the local server) in a private schema dropped on close. `KILN_E2E_PERSISTENCE=memory` runs the
 * same suites on the in-memory adapters instead. `overrides` replace any of these parts.
 */
export interface TestApp {
  readonly app: NestExpressApplication;
  readonly config: AppConfig;
  /** supertest bound to the listening server. */
  http(): ReturnType<typeof request>;
  close(): Promise<void>;
}

export interface TestUser {
  readonly id: string;
  readonly email: string;
  readonly token: string;
  /** `{ Authorization: 'Bearer …' }` */
  readonly auth: Readonly<Record<string, string>>;
}

export function testConfig(env: Env = {}): AppConfig {
  return loadConfig({ NODE_ENV: 'test', ...env });
}

export async function startTestApp(options: { env?: Env; overrides?: Partial<AppParts> } = {}): Promise<TestApp> {
  const config = testConfig(options.env);
  const inMemory = process.env['KILN_E2E_PERSISTENCE'] === 'memory';
  const ownsSchema = !inMemory && options.overrides?.persistence === undefined;
  const schema = `e2e_${randomBytes(6).toString('hex')}`;
  const app = await createApp(config, {
    persistence: inMemory
      ? InMemoryPersistenceModule.forRoot()
      : PostgresPersistenceModule.forRoot({ url: process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL, schema }),
    sandboxHost: new InMemorySandboxHost(options.overrides?.clock),
    hosting: inMemoryHosting(),
    databases: inMemoryDatabases(),
    accessTokenVerifier: new TestAccessTokenVerifier(),
    ...options.overrides,
  });
  await app.listen(0, '127.0.0.1');
  const url = await app.getUrl();
  return {
    app,
    config,
    http: () => request(url.replace('[::1]', '127.0.0.1')),
    close: async () => {
      if (ownsSchema) {
        const dataSource = app.get<DataSource>(POSTGRES_DATA_SOURCE, { strict: false });
        await dataSource.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      }
      await app.close();
    },
  };
}

/** Publishing's adapters in memory (tests reach them as `parts.hosting` through `overrides`, or keep this default). */
export function inMemoryHosting(): HostingAdapters & {
  provider: InMemoryHostingProvider;
  dns: InMemoryDnsResolver;
  certificates: InMemoryCertificateAuthority;
  screenshotter: InMemorySiteScreenshotter;
} {
  return {
    provider: new InMemoryHostingProvider(),
    dns: new InMemoryDnsResolver(),
    certificates: new InMemoryCertificateAuthority(),
    screenshotter: new InMemorySiteScreenshotter(),
  };
}

/** Project databases in memory (tests reach the provisioner as `parts.databases.provisioner` through `overrides`). */
export function inMemoryDatabases(): DatabaseAdapters & { provisioner: InMemoryDatabaseProvisioner; migrator: InMemorySchemaMigrator } {
  const provisioner = new InMemoryDatabaseProvisioner();
  return { provisioner, migrator: new InMemorySchemaMigrator(provisioner) };
}

/** A new user (random UUID id) with a minted test token. */
export function newUser(fullName?: string): TestUser {
  const id = randomUUID();
  const email = `user-${id.slice(0, 8)}@example.com`;
  const token = mintTestToken(id, email, fullName);
  return { id, email, token, auth: { Authorization: `Bearer ${token}` } };
}

/** Puts a user on a plan through the ProfileRepository port (no plan-change endpoint exists yet). */
export async function setPlan(t: TestApp, userId: string, planId: string): Promise<void> {
  const profiles = t.app.get<ProfileRepository>(PROFILE_REPOSITORY, { strict: false });
  const profile = await profiles.findById(userId);
  if (!profile) throw new Error(`No profile ${userId}: call the API as this user first`);
  await profiles.update({ ...profile, subscriptionPlan: planId });
}

/** Signs a user in the way the web does after sign-in: POST /api/profile/ensure. */
export async function signIn(t: TestApp, user: TestUser, referralCode?: string): Promise<Record<string, unknown>> {
  const response = await t.http().post('/api/profile/ensure').set(user.auth).send(referralCode ? { referral_code: referralCode } : {});
  if (response.status !== 200) throw new Error(`ensure failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}

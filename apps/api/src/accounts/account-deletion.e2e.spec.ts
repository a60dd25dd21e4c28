import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DEFAULT_TEST_DATABASE_URL } from '@kiln/adapters/testing';
import { DeliverMarketingOutbox } from '@kiln/domain';
import { FixedClock, InMemorySandboxHost } from '@kiln/domain/testing';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { AuthModule } from '../auth/auth.module.js';
import { createApp } from '../bootstrap.js';
import { loadConfig } from '../config.js';
import { postgresAuthStores } from '../persistence/postgres-auth-stores.js';
import { POSTGRES_DATA_SOURCE, PostgresPersistenceModule } from '../persistence/postgres-persistence.module.js';
import { inMemoryHosting } from '../testing/e2e.js';

jest.setTimeout(60_000);

/** A sandbox host whose cleanup can be made to fail (an unreachable host). */
class FlakySandboxHost extends InMemorySandboxHost {
  down = false;
  override async cleanup(sandboxId: string): Promise<void> {
    if (this.down) throw new Error('sandbox host unreachable');
    return super.cleanup(sandboxId);
  }
}

const V = { 'X-Supabase-Api-Version': '2024-01-01' };
const PASSWORD = 'correct horse battery';

/**
 * Account deletion through HTTP, on PostgreSQL with the built-in auth: POST /api/auth/soft-delete
 * hides the projects and removes their sandboxes, ends every session, and frees the address.
 */
describe('POST /api/auth/soft-delete (the whole app, PostgreSQL)', () => {
  const schema = `e2e_delacct_${randomBytes(6).toString('hex')}`;
  // A clock the test moves: the address's mail cooldown (60 s) must pass before it signs up again.
  const clock = new FixedClock(new Date());
  const sandboxes = new FlakySandboxHost(clock);
  let dataDir: string;
  let app: NestExpressApplication;
  let url: string;
  let db: DataSource;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'kiln-delacct-'));
    app = await createApp(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir }), {
      persistence: PostgresPersistenceModule.forRoot({ url: process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL, schema }),
      auth: AuthModule.register({ stores: postgresAuthStores }),
      sandboxHost: sandboxes,
      clock,
      hosting: inMemoryHosting(),
    });
    await app.listen(0, '127.0.0.1');
    url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    db = app.get<DataSource>(POSTGRES_DATA_SOURCE, { strict: false });
  });
  afterAll(async () => {
    try {
      if (db) await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await app?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    }
  });

  const http = () => request(url);
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const latestCode = async (email: string): Promise<string> => {
    const response = await http().get('/api/dev/outbox').query({ email }).expect(200);
    const [newest] = response.body as { text: string }[];
    return /\b(\d{6})\b/.exec(newest?.text ?? '')?.[1] ?? '';
  };
  type Session = { access_token: string; refresh_token: string; user: { id: string } };
  const signUp = async (email: string): Promise<Session> => {
    await http().post('/auth/v1/signup').set(V).send({ email, password: PASSWORD }).expect(200);
    const verified = await http().post('/auth/v1/verify').set(V).send({ type: 'signup', email, token: await latestCode(email) }).expect(200);
    await http().post('/api/profile/ensure').set(bearer(verified.body.access_token)).send({}).expect(200);
    return verified.body as Session;
  };
  const newProject = async (session: Session, name: string): Promise<string> => {
    const created = await http().post('/api/projects').set(bearer(session.access_token)).send({ name }).expect(201);
    await sandboxes.ensure(created.body.id);
    return created.body.id as string;
  };

  it('sign up, delete: sign-in fails, old tokens are refused, projects are hidden, the email signs up anew', async () => {
    const email = `del-${randomBytes(4).toString('hex')}@example.com`;
    const first = await signUp(email);
    const projectId = await newProject(first, 'Doomed');
    const code = (await http().get('/api/referrals').set(bearer(first.access_token)).expect(200)).body.referral_code as string;
    const second = (await http().post('/auth/v1/token?grant_type=password').set(V).send({ email, password: PASSWORD }).expect(200)).body as Session;
    const marketing = async () => {
      await app.get(DeliverMarketingOutbox).execute();
      return (await http().get('/api/dev/marketing').query({ email }).expect(200)).body as { contacts: unknown[]; pending: unknown[] };
    };
    expect((await marketing()).contacts).toHaveLength(1);

    const res = await http().post('/api/auth/soft-delete').set(bearer(first.access_token));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: first.user.id, subscription_cancelled: false, projects_hidden: 1 });
    // the marketing contact is removed (through the outbox)
    expect(await marketing()).toMatchObject({ contacts: [], pending: [] });

    // every session is over, refresh tokens included
    for (const s of [first, second]) {
      expect((await http().get('/api/projects').set(bearer(s.access_token))).status).toBe(401);
      const refresh = await http().post('/auth/v1/token?grant_type=refresh_token').set(V).send({ refresh_token: s.refresh_token });
      expect([refresh.status, refresh.body.code]).toEqual([400, 'refresh_token_not_found']);
    }
    const signIn = await http().post('/auth/v1/token?grant_type=password').set(V).send({ email, password: PASSWORD });
    expect([signIn.status, signIn.body.code]).toEqual([400, 'invalid_credentials']);
    // the project is hidden (status deleted in the table) and its sandbox is gone
    expect((await db.query(`SELECT status FROM "${schema}".projects WHERE id = $1`, [projectId]))[0]?.status).toBe('deleted');
    expect((await sandboxes.ensure(projectId)).machineCreated).toBe(true);

    clock.advance(61_000);
    // the same address is a new account, with its own id and none of the old projects
    const again = await signUp(email);
    expect(again.user.id).not.toBe(first.user.id);
    expect((await http().get('/api/projects').set(bearer(again.access_token)).expect(200)).body).toEqual([]);
    expect((await http().get(`/api/projects/${projectId}`).set(bearer(again.access_token))).status).toBe(404);
    // the profile is hidden: its referral code resolves to nobody, the new account has its own
    const applied = await http().post('/api/referrals/apply').set(bearer(again.access_token)).send({ code });
    expect([applied.status, applied.body.code]).toEqual([404, 'REFERRALS.UNKNOWN_CODE']);
    const fresh = (await http().get('/api/referrals').set(bearer(again.access_token)).expect(200)).body;
    expect(fresh).toMatchObject({ referred_count: 0, credits_earned: 0 });
    expect(fresh.referral_code).not.toBe(code);
  });

  it('answers 503 when a step fails, leaving the account signed in to retry; the retry finishes', async () => {
    const email = `del-${randomBytes(4).toString('hex')}@example.com`;
    const session = await signUp(email);
    await newProject(session, 'Kept for now');
    sandboxes.down = true;
    try {
      const failed = await http().post('/api/auth/soft-delete').set(bearer(session.access_token));
      expect([failed.status, failed.body.code]).toEqual([503, 'ACCOUNT.DELETION_UNAVAILABLE']);
      expect((await http().get('/api/projects').set(bearer(session.access_token))).status).toBe(200);
    } finally {
      sandboxes.down = false;
    }
    const retried = await http().post('/api/auth/soft-delete').set(bearer(session.access_token));
    expect([retried.status, retried.body.projects_hidden]).toEqual([200, 1]);
  });
});

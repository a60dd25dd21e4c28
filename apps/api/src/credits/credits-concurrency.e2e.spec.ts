import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type TestApp, newUser, signIn, startTestApp } from '../testing/e2e.js';

/** Many requests in flight at once over real HTTP connections to the listening server. */
describe('credits (HTTP) — concurrency', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('100 simultaneous prompts with distinct keys on a free account (5 credits): exactly 5 × 200 and 95 × 402', async () => {
    const user = newUser();
    await signIn(t, user);
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => t.http().post('/api/credits/consume').set(user.auth).set('Idempotency-Key', `burst-${i}`)),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 402)).toHaveLength(95);
    for (const r of responses.filter((r) => r.status === 402)) expect(r.body).toMatchObject({ code: 'CREDITS.LIMIT_REACHED', limit_type: 'credit' });

    const usage = await t.http().get('/api/usage').set(user.auth);
    expect(usage.body).toMatchObject({ credits_remaining: 0, prompts_used: 5 });
  }, 30_000); // 100 real HTTP requests and transactions: slow on a busy 2-core machine

  it('the same key sent 20 times at once is charged once', async () => {
    const user = newUser();
    await signIn(t, user);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => t.http().post('/api/credits/consume').set(user.auth).set('Idempotency-Key', 'same-message')),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(responses.filter((r) => r.body.replayed === false)).toHaveLength(1);
    expect(new Set(responses.map((r) => JSON.stringify(r.body.debit))).size).toBe(1);

    const usage = await t.http().get('/api/usage').set(user.auth);
    expect(usage.body).toMatchObject({ credits_remaining: 4, prompts_used: 1 });
  });

  it('a brand-new user’s first requests arriving together create one profile and one allowance', async () => {
    const user = newUser();
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => t.http().post('/api/credits/consume').set(user.auth).set('Idempotency-Key', `first-${i}`)),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(5);
    expect(responses.filter((r) => r.status === 402)).toHaveLength(5);
    expect((await t.http().get('/api/usage').set(user.auth)).body).toMatchObject({ credits_remaining: 0, prompts_used: 5, prompts_total: 5 });
  });
});

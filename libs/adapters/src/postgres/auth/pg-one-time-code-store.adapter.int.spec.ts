import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type EmailAddress, type OneTimeCode, createAuthUser } from '@kiln/domain';
import { oneTimeCodeStoreContract } from '@kiln/domain/contracts';
import { PgUnitOfWork } from '../pg-unit-of-work.js';
import { type TestDatabase, createTestDatabase } from '../testing/test-database.js';
import { PgAuthUserRepository } from './pg-auth-user-repository.adapter.js';
import { PgOneTimeCodeStore } from './pg-one-time-code-store.adapter.js';

jest.setTimeout(30_000);

const T0 = Date.UTC(2026, 0, 15, 10, 0, 0);
const at = (seconds: number) => new Date(T0 + seconds * 1000);

/** An account for codes to point at (auth_one_time_codes.user_id references auth_users). */
function accounts(tx: PgUnitOfWork) {
  const users = new PgAuthUserRepository(tx);
  return async (): Promise<string> => {
    const id = randomUUID();
    await users.insert(createAuthUser({ id, identityId: randomUUID(), email: `owner-${id}@example.com` as EmailAddress, passwordHash: null, metadata: {} }, at(0)));
    return id;
  };
}

oneTimeCodeStoreContract('postgres', async () => {
  const db = await createTestDatabase();
  const tx = new PgUnitOfWork(db.dataSource);
  return { codes: new PgOneTimeCodeStore(tx), newId: () => randomUUID(), newUserId: accounts(tx), close: () => db.drop() };
});

describe('PgOneTimeCodeStore on PostgreSQL', () => {
  let db: TestDatabase;
  let tx: PgUnitOfWork;
  let codes: PgOneTimeCodeStore;
  let newUserId: () => Promise<string>;

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 12 });
    tx = new PgUnitOfWork(db.dataSource);
    codes = new PgOneTimeCodeStore(tx);
    newUserId = accounts(tx);
  });
  afterAll(async () => {
    await db.drop();
  });

  const issue = async (email: EmailAddress, over: Partial<OneTimeCode> = {}): Promise<OneTimeCode> => {
    const code: OneTimeCode = {
      id: randomUUID(),
      email,
      purpose: 'signup',
      userId: await newUserId(),
      codeHash: 'digest-right',
      issuedAt: at(0),
      expiresAt: at(600),
      failedAttempts: 0,
      consumedAt: null,
      ...over,
    };
    expect(await codes.issue(code, 60_000)).toEqual({ kind: 'issued' });
    return code;
  };
  const consume = (email: EmailAddress, digest: string, seconds: number) =>
    codes.consume({ email, candidates: [{ purpose: 'signup', codeHash: digest }], now: at(seconds), maxFailedAttempts: 5 });
  const stored = async (email: EmailAddress) =>
    (await db.dataSource.query('SELECT failed_attempts, consumed_at FROM auth_one_time_codes WHERE email = $1', [email])) as {
      failed_attempts: number;
      consumed_at: Date | null;
    }[];

  it('accepts exactly one of 10 concurrent verifications of one code, and counts no failed try', async () => {
    for (let round = 0; round < 5; round++) {
      const email = `race-${randomUUID()}@example.com` as EmailAddress;
      await issue(email);
      const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => consume(email, 'digest-right', 1 + i / 10)));
      expect(outcomes.filter((o) => o.kind === 'accepted')).toHaveLength(1);
      expect(await stored(email)).toEqual([{ failed_attempts: 0, consumed_at: expect.any(Date) }]);
    }
  });

  it('under 10 concurrent tries (one right, nine wrong) counts each wrong one that came first, never past the limit', async () => {
    for (let round = 0; round < 5; round++) {
      const email = `mixed-${randomUUID()}@example.com` as EmailAddress;
      await issue(email);
      const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => consume(email, i === round ? 'digest-right' : `wrong-${i}`, 1)));
      const [row] = await stored(email);
      const accepted = outcomes.filter((o) => o.kind === 'accepted').length;
      // Accepted only if it came before the fifth wrong try; then the rest of the wrong tries hit a consumed code.
      expect(accepted).toBeLessThanOrEqual(1);
      expect(row.failed_attempts).toBeLessThanOrEqual(5);
      if (accepted === 1) {
        expect(row.consumed_at).not.toBeNull();
        expect(row.failed_attempts).toBeLessThanOrEqual(4);
      } else expect(row.failed_attempts).toBe(5);
    }
  });

  it('keeps the stored dates to the millisecond', async () => {
    const email = `ms-${randomUUID()}@example.com` as EmailAddress;
    const issued = await issue(email, { issuedAt: new Date(T0 + 123), expiresAt: new Date(T0 + 600_456) });
    const accepted = await codes.consume({ email, candidates: [{ purpose: 'signup', codeHash: 'digest-right' }], now: new Date(T0 + 789), maxFailedAttempts: 5 });
    expect(accepted).toEqual({ kind: 'accepted', code: { ...issued, consumedAt: new Date(T0 + 789) } });
  });

  it('answers the exact wait left in the cooldown', async () => {
    const email = `cool-${randomUUID()}@example.com` as EmailAddress;
    await issue(email, { issuedAt: new Date(T0 + 250) });
    const again = await codes.issue({ ...(await issueless(email)), issuedAt: new Date(T0 + 59_999) }, 60_000);
    expect(again).toEqual({ kind: 'cooling_down', retryAfterMs: 251 });
  });

  it('joins the caller’s transaction: a rollback withdraws the issued code', async () => {
    const email = `tx-${randomUUID()}@example.com` as EmailAddress;
    await expect(
      tx.run(async () => {
        await issue(email);
        throw new Error('mail failed');
      }),
    ).rejects.toThrow('mail failed');
    expect(await stored(email)).toEqual([]);
  });

  async function issueless(email: EmailAddress): Promise<OneTimeCode> {
    return { id: randomUUID(), email, purpose: 'signup', userId: await newUserId(), codeHash: 'x', issuedAt: at(0), expiresAt: at(600), failedAttempts: 0, consumedAt: null };
  }
});

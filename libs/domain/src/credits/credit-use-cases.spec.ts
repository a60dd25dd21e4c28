import { describe, expect, it } from '@jest/globals';
import { DAY_MS } from '../testing/fixed-clock.js';
import { createTestKit, signUp } from '../testing/test-kit.js';

describe('ConsumePromptCredit', () => {
  it('charges one credit per prompt from the monthly allowance', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    const r = await kit.consumePromptCredit.execute({ userId: 'ana', idempotencyKey: 'msg-1' });
    expect(r.ok && r.value.creditsRemaining).toBe(4);
    expect(r.ok && r.value.debit.portions).toEqual([{ bucket: 'monthly', amount: 1 }]);
  });

  it('does not charge a retried message twice', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    await kit.consumePromptCredit.execute({ userId: 'ana', idempotencyKey: 'msg-1' });
    const again = await kit.consumePromptCredit.execute({ userId: 'ana', idempotencyKey: 'msg-1' });
    expect(again.ok && again.value.replayed).toBe(true);
    expect(again.ok && again.value.creditsRemaining).toBe(4);
  });

  it('reaches the credit limit after the sixth prompt of a free month', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    for (let i = 1; i <= 5; i += 1) {
      expect((await kit.consumePromptCredit.execute({ userId: 'ana', idempotencyKey: `m${i}` })).ok).toBe(true);
    }
    const sixth = await kit.consumePromptCredit.execute({ userId: 'ana', idempotencyKey: 'm6' });
    expect(sixth).toEqual({ ok: false, error: expect.objectContaining({ code: 'CREDITS.LIMIT_REACHED', limitType: 'credit' }) });
  });

  it('treats a missing profile as the credit limit reached (SPEC §5)', async () => {
    const kit = createTestKit();
    const r = await kit.consumePromptCredit.execute({ userId: 'ghost', idempotencyKey: 'm1' });
    expect(!r.ok && r.error.code).toBe('CREDITS.LIMIT_REACHED');
  });

  it('resets the free allowance a month after sign-up, without accumulating', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana'); // 2026-01-15T10:00Z
    await kit.consumePromptCredit.execute({ userId: 'ana', idempotencyKey: 'm1' });
    kit.clock.set('2026-02-15T10:00:00Z');
    const r = await kit.consumePromptCredit.execute({ userId: 'ana', idempotencyKey: 'm2' });
    expect(r.ok && r.value.balances.monthly).toBe(4);
  });

  it('uses referral credits after the allowance and add-ons last', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    await kit.grantAddOnCredits.execute({ userId: 'ana', packs: 1, paymentKey: 'pay-1' });
    await kit.ledger.grant('ana', { key: 'gift', at: kit.clock.now(), bucket: 'referral', amount: 2, reason: 'referral_bonus' });
    const buckets: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      const r = await kit.consumePromptCredit.execute({ userId: 'ana', idempotencyKey: `m${i}` });
      if (r.ok) buckets.push(r.value.debit.portions[0]!.bucket);
    }
    expect(buckets).toEqual(['monthly', 'monthly', 'monthly', 'monthly', 'monthly', 'referral', 'referral', 'addon']);
  });
});

describe('RefundPromptCredit', () => {
  it('gives the credit back once, as a new entry', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    await kit.consumePromptCredit.execute({ userId: 'ana', idempotencyKey: 'm1' });
    const first = await kit.refundPromptCredit.execute({ userId: 'ana', debitKey: 'm1' });
    const second = await kit.refundPromptCredit.execute({ userId: 'ana', debitKey: 'm1' });
    expect(first.ok && first.value.replayed).toBe(false);
    expect(second.ok && second.value.replayed).toBe(true);
    expect((await kit.ledger.summary('ana')).balances.monthly).toBe(5);
    expect((await kit.ledger.entries('ana')).map((e) => e.kind)).toEqual(['cycle', 'debit', 'refund']);
  });
});

describe('GrantAddOnCredits', () => {
  it('adds 500 credits per pack once per payment, and they survive monthly resets', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    await kit.grantAddOnCredits.execute({ userId: 'ana', packs: 2, paymentKey: 'pay-1' });
    await kit.grantAddOnCredits.execute({ userId: 'ana', packs: 2, paymentKey: 'pay-1' });
    kit.clock.advance(400 * DAY_MS);
    await kit.grantMonthlyAllowance.execute({ userId: 'ana' });
    expect((await kit.ledger.summary('ana')).balances).toEqual({ monthly: 5, referral: 0, addon: 1000 });
  });

  it('refuses a non-positive pack count and an unknown user', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    const zero = await kit.grantAddOnCredits.execute({ userId: 'ana', packs: 0, paymentKey: 'p' });
    expect(!zero.ok && zero.error.code).toBe('CREDITS.INVALID_AMOUNT');
    const ghost = await kit.grantAddOnCredits.execute({ userId: 'ghost', packs: 1, paymentKey: 'p' });
    expect(!ghost.ok && ghost.error.code).toBe('PROFILES.NOT_FOUND');
  });
});

describe('GetUsageStats', () => {
  it('reports SPEC usage stats for a free user', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    await kit.consumePromptCredit.execute({ userId: 'ana', idempotencyKey: 'm1' });
    await kit.consumePromptCredit.execute({ userId: 'ana', idempotencyKey: 'm2' });
    await kit.createProject.execute({ creatorId: 'ana', name: 'Todo' });
    const r = await kit.getUsageStats.execute({ userId: 'ana' });
    expect(r.ok && r.value).toEqual(
      expect.objectContaining({
        promptsTotal: 5,
        promptsUsed: 2,
        promptsPercentUsed: 40,
        privateProjectsCount: 1,
        privateProjectsLimit: 3,
        isUnlimitedPrivateProjects: false,
        privateProjectsPercentUsed: 33,
        publishedProjectsCount: 0,
        publishedProjectsLimit: 0,
        publishedProjectsPercentUsed: 0,
        isUnlimitedPrompts: false,
        creditsRemaining: 3,
        creditsFromReferrals: 0,
        promptsFromPlan: 5,
        promptsFromReferrals: 0,
        isLimitlessPlan: false,
      }),
    );
  });

  it('shows unlimited projects on pro as -1 / unlimited with 0 percent', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    await kit.changePlan.execute({ userId: 'ana', planId: 'pro_monthly', subscriptionStatus: 'active' });
    const r = await kit.getUsageStats.execute({ userId: 'ana' });
    expect(r.ok && r.value).toEqual(
      expect.objectContaining({
        promptsTotal: 25,
        privateProjectsLimit: -1,
        isUnlimitedPrivateProjects: true,
        publishedProjectsLimit: 'unlimited',
        isUnlimitedPublishedProjects: true,
        privateProjectsPercentUsed: 0,
        publishedProjectsPercentUsed: 0,
        creditsRemaining: 25,
      }),
    );
  });
});

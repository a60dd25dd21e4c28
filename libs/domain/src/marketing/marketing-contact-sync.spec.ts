import { describe, expect, it } from '@jest/globals';
import type { AccountActivity, AccountActivityListener } from '../shared/account-activity.port.js';
import { FixedClock } from '../testing/fixed-clock.js';
import { InMemoryMarketingOutbox } from '../testing/in-memory-marketing.js';
import { createTestKit, signUp } from '../testing/test-kit.js';
import { MarketingContactSync } from './marketing-contact-sync.js';

/** The kit's use cases tell the sync, which is built from the kit's own repositories. */
function setup() {
  const relay: { target: AccountActivityListener | null } & AccountActivityListener = {
    target: null,
    record: (a: AccountActivity) => relay.target?.record(a) ?? Promise.resolve(),
  };
  const clock = new FixedClock('2026-03-01T10:00:00Z');
  const kit = createTestKit({ clock, activity: relay });
  const outbox = new InMemoryMarketingOutbox();
  const warnings: string[] = [];
  relay.target = new MarketingContactSync(kit.profiles, kit.ledger, kit.projects, outbox, { warn: (m) => warnings.push(m) });
  const queued = async (email: string) => (await outbox.pending(email)).map((p) => (p.delivery.kind === 'contact' ? p.delivery.attributes : null));
  return { kit, clock, outbox, warnings, queued };
}

describe('MarketingContactSync (server events keep the contact current)', () => {
  it('sign-up queues the new contact: 0 prompts used, a balance of 5, plan free, name and sign-up date', async () => {
    const { kit, queued } = setup();
    await signUp(kit, 'asha', { fullName: 'Asha Rao Menon' });
    expect(await queued('asha@example.com')).toEqual([
      {
        FIRSTNAME: 'Asha',
        LASTNAME: 'Rao Menon',
        PLAN: 'free',
        TOTAL_PROMPTS_USED: 0,
        PROMPTS_BALANCE: 5,
        CREDIT_BALANCE: 5,
        SIGNUP_DATE: '2026-03-01',
        JOB_TITLE: 'other',
        PROJECT_COUNT: 0,
        EXT_ID: 'asha',
      },
    ]);
  });

  it('a second sign-in queues nothing new', async () => {
    const { kit, queued } = setup();
    await signUp(kit, 'asha');
    await signUp(kit, 'asha');
    expect(await queued('asha@example.com')).toHaveLength(1);
  });

  it('prompt use queues the counts and when the last prompt was used; a replayed key queues nothing', async () => {
    const { kit, clock, queued } = setup();
    await signUp(kit, 'asha');
    clock.advance(60_000);
    expect((await kit.consumePromptCredit.execute({ userId: 'asha', idempotencyKey: 'm-1' })).ok).toBe(true);
    await kit.consumePromptCredit.execute({ userId: 'asha', idempotencyKey: 'm-1' });
    const updates = await queued('asha@example.com');
    expect(updates).toHaveLength(2);
    expect(updates[1]).toMatchObject({ TOTAL_PROMPTS_USED: 1, PROMPTS_BALANCE: 4, CREDIT_BALANCE: 4, LAST_PROMPT_USED_TIMESTAMP: '2026-03-01T10:01:00.000Z' });
  });

  it('a plan change queues the new plan and billing period', async () => {
    const { kit, queued } = setup();
    await signUp(kit, 'asha');
    const period = { start: new Date('2026-03-05T00:00:00Z'), end: new Date('2026-04-05T00:00:00Z') };
    expect((await kit.changePlan.execute({ userId: 'asha', planId: 'pro_monthly', period })).ok).toBe(true);
    expect((await queued('asha@example.com')).at(-1)).toMatchObject({
      PLAN: 'pro_monthly',
      BILLING_CYCLE_START_DATE: '2026-03-05',
      BILLING_CYCLE_END_DATE: '2026-04-05',
      FIRST_PURCHASE_DATE: '2026-03-01',
      PROMPTS_BALANCE: 25,
    });
  });

  it('a purchase queues the new credit balance, once per payment', async () => {
    const { kit, queued } = setup();
    await signUp(kit, 'asha');
    await kit.grantAddOnCredits.execute({ userId: 'asha', packs: 1, paymentKey: 'pi_1' });
    await kit.grantAddOnCredits.execute({ userId: 'asha', packs: 1, paymentKey: 'pi_1' });
    const updates = await queued('asha@example.com');
    expect(updates).toHaveLength(2);
    expect(updates[1]).toMatchObject({ PROMPTS_BALANCE: 5, CREDIT_BALANCE: 505 });
  });

  it('a failing outbox never fails the person’s action: the prompt is charged and the failure logged', async () => {
    const { kit, outbox, warnings } = setup();
    await signUp(kit, 'asha');
    outbox.enqueue = async () => {
      throw new Error('database gone');
    };
    const charged = await kit.consumePromptCredit.execute({ userId: 'asha', idempotencyKey: 'm-1' });
    expect(charged.ok && charged.value.creditsRemaining).toBe(4);
    expect(warnings).toEqual(['Marketing contact not queued after prompt_used: database gone']);
  });
});

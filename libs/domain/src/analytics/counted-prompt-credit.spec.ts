import { describe, expect, it } from '@jest/globals';
import { InMemoryAnalyticsEventStore } from '../testing/in-memory-analytics-event-store.js';
import { createTestKit, signUp } from '../testing/test-kit.js';
import { CountedPromptCredit } from './counted-prompt-credit.js';

function setup() {
  const kit = createTestKit();
  const store = new InMemoryAnalyticsEventStore();
  const warnings: string[] = [];
  const consume = new CountedPromptCredit(kit.profiles, kit.ledger, kit.grantMonthlyAllowance, kit.clock, store, { warn: (m) => warnings.push(m) });
  return { kit, store, warnings, consume };
}

describe('CountedPromptCredit: prompts for the operators’ chart', () => {
  it('records one prompt event per prompt charged, not for a replayed key', async () => {
    const { kit, store, consume } = setup();
    await signUp(kit, 'ana');
    await consume.execute({ userId: 'ana', idempotencyKey: 'm1' });
    await consume.execute({ userId: 'ana', idempotencyKey: 'm1' });
    await consume.execute({ userId: 'ana', idempotencyKey: 'm2' });
    expect(store.all().map((e) => [e.name, e.kind, e.userId, e.occurredAt.toISOString()])).toEqual([
      ['prompt', 'server', 'ana', kit.clock.now().toISOString()],
      ['prompt', 'server', 'ana', kit.clock.now().toISOString()],
    ]);
  });

  it('records nothing when the prompt is refused', async () => {
    const { store, consume } = setup();
    const refused = await consume.execute({ userId: 'ghost', idempotencyKey: 'm1' });
    expect(!refused.ok && refused.error.code).toBe('CREDITS.LIMIT_REACHED');
    expect(store.all()).toEqual([]);
  });

  it('a failing store is only reported: the prompt is still charged', async () => {
    const { kit, store, warnings, consume } = setup();
    await signUp(kit, 'ana');
    store.failing = true;
    const charged = await consume.execute({ userId: 'ana', idempotencyKey: 'm1' });
    expect(charged.ok && charged.value.creditsRemaining).toBe(4);
    expect(warnings).toEqual(['Recording a prompt for analytics failed: analytics store unavailable']);
  });
});

import { describe, expect, it } from '@jest/globals';
import { createProfile } from '@kiln/domain';
import { FixedClock, InMemoryCreditLedger, InMemoryProfileRepository } from '@kiln/domain/testing';
import { InMemoryMailOutbox } from './in-memory-mail-outbox.js';
import { LedgerBackedProfileRepository } from './ledger-backed-profile-repository.js';

describe('LedgerBackedProfileRepository', () => {
  it('fills credits, referral_credits and extra_credits from the ledger balances', async () => {
    const ledger = new InMemoryCreditLedger();
    const profiles = new LedgerBackedProfileRepository(new InMemoryProfileRepository(), ledger);
    const now = new Date('2026-01-01T00:00:00Z');
    const inserted = await profiles.insertIfAbsent(createProfile({ id: 'u1', email: 'u1@example.com', referralCode: 'ABCDEF' }, now));
    expect(inserted).toMatchObject({ created: true, profile: { credits: 0, referralCredits: 0, extraCredits: 0 } });

    await ledger.startCycle('u1', { key: 'c1', at: now, start: now, end: new Date('2026-02-01T00:00:00Z'), allowance: 5 });
    await ledger.grant('u1', { key: 'g1', at: now, bucket: 'referral', amount: 25, reason: 'referral_bonus' });
    await ledger.grant('u1', { key: 'g2', at: now, bucket: 'addon', amount: 500, reason: 'addon_purchase' });

    expect(await profiles.findById('u1')).toMatchObject({ credits: 5, referralCredits: 25, extraCredits: 500 });
    expect(await profiles.findByReferralCode('ABCDEF')).toMatchObject({ credits: 5, referralCredits: 25, extraCredits: 500 });
    expect(await profiles.findById('nobody')).toBeNull();
  });
});

describe('InMemoryMailOutbox', () => {
  it('lists one address’s mail newest first, matching the address in any case', async () => {
    const clock = new FixedClock();
    const outbox = new InMemoryMailOutbox(clock);
    await outbox.send({ to: 'Ana@Example.com', subject: 'one', text: '1' });
    clock.advance(1000);
    await outbox.send({ to: 'ben@example.com', subject: 'other', text: 'x' });
    await outbox.send({ to: 'ana@example.com', subject: 'two', text: '2' });
    const mail = await outbox.list(' ANA@example.com ');
    expect(mail.map((m) => m.subject)).toEqual(['two', 'one']);
    expect(mail[0]?.created_at).toEqual(clock.now());
    expect(await outbox.list('nobody@example.com')).toEqual([]);
  });
});

import { describe, expect, it } from '@jest/globals';
import { STORAGE_KEYS } from '../../app/ports';
import { InMemoryKeyValueStorage } from '../../storage/memory-storage';
import { FakeToasts } from '../../testing/ui-fakes';
import { ReferralCapture } from './referral-capture';

function setup(initial: Record<string, string> = {}) {
  const storage = new InMemoryKeyValueStorage(initial);
  const toasts = new FakeToasts();
  return { storage, toasts, capture: new ReferralCapture(storage, toasts) };
}

describe('ReferralCapture', () => {
  it('keeps a valid ?ref code and returns the address without it', () => {
    const { capture, storage } = setup();

    const cleaned = capture.capture('https://kiln.dev/pricing?plan=pro&ref=K7QX2M#faq');

    expect(cleaned).toBe('/pricing?plan=pro#faq');
    expect(storage.get(STORAGE_KEYS.referralCode)).toBe('K7QX2M');
  });

  it('normalises the code the way the domain does (trimmed, upper case)', () => {
    const { capture, storage } = setup();
    expect(capture.capture('/?ref=%20k7qx2m%20')).toBe('/');
    expect(storage.get(STORAGE_KEYS.referralCode)).toBe('K7QX2M');
  });

  it('drops an invalid code from the address without keeping it or the older one', () => {
    const { capture, storage } = setup({ [STORAGE_KEYS.referralCode]: 'ABCDEF' });

    expect(capture.capture('/signup?ref=I0O1XX')).toBe('/signup');

    expect(storage.get(STORAGE_KEYS.referralCode)).toBe('ABCDEF');
  });

  it('leaves addresses without ?ref alone', () => {
    const { capture, storage } = setup();
    expect(capture.capture('https://kiln.dev/?prompt=todo')).toBeNull();
    expect(storage.snapshot()).toEqual({});
  });

  it('a newer link replaces the stored code', () => {
    const { capture, storage } = setup({ [STORAGE_KEYS.referralCode]: 'ABCDEF' });
    capture.capture('/?ref=K7QX2M');
    expect(storage.get(STORAGE_KEYS.referralCode)).toBe('K7QX2M');
  });

  it('pendingCode returns the stored code and forgets a corrupted one', () => {
    expect(setup({ [STORAGE_KEYS.referralCode]: 'K7QX2M' }).capture.pendingCode()).toBe('K7QX2M');

    const corrupted = setup({ [STORAGE_KEYS.referralCode]: 'not a code' });
    expect(corrupted.capture.pendingCode()).toBeNull();
    expect(corrupted.storage.snapshot()).toEqual({});
  });

  it("settle: an applied referral clears the code and shows 'Welcome Bonus!'", () => {
    const { capture, storage, toasts } = setup({ [STORAGE_KEYS.referralCode]: 'K7QX2M' });

    capture.settle({ applied: true, bonus: 25 });

    expect(storage.snapshot()).toEqual({});
    expect(toasts.shown).toEqual([
      { title: 'Welcome Bonus!', description: 'You received 25 bonus credits for signing up with a referral link!', variant: 'success' },
    ]);
  });

  it('settle: a refused referral clears the code silently', () => {
    const { capture, storage, toasts } = setup({ [STORAGE_KEYS.referralCode]: 'K7QX2M' });

    capture.settle({ applied: false, code: 'REFERRALS.SELF_REFERRAL', detail: 'You cannot use your own referral code' });

    expect(storage.snapshot()).toEqual({});
    expect(toasts.shown).toEqual([]);
  });
});

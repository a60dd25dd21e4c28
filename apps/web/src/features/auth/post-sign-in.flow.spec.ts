import { describe, expect, it } from '@jest/globals';
import { HOME_PROMPT_KEY, STORAGE_KEYS } from '../../app/ports';
import { InMemoryKeyValueStorage } from '../../storage/memory-storage';
import { StoredSavedPrompts } from '../../storage/saved-prompts';
import { FakeProfileApi } from '../../testing/auth-fakes';
import { FakeToasts } from '../../testing/ui-fakes';
import { ReferralCapture } from '../referral-capture/referral-capture';
import { PostSignInFlow, safeReturnPath } from './post-sign-in.flow';

function setup(initial: Record<string, string> = {}) {
  const storage = new InMemoryKeyValueStorage(initial);
  const toasts = new FakeToasts();
  const profiles = new FakeProfileApi();
  const flow = new PostSignInFlow(profiles, storage, new ReferralCapture(storage, toasts), new StoredSavedPrompts(storage));
  return { storage, toasts, profiles, flow };
}

describe('PostSignInFlow.completeSignIn', () => {
  it('ensures the profile without a referral code when none is stored', async () => {
    const { flow, profiles, toasts } = setup();
    await flow.completeSignIn();
    expect(profiles.ensured).toEqual([null]);
    expect(toasts.shown).toEqual([]);
  });

  it("sends the stored code, clears it and shows 'Welcome Bonus!' when applied", async () => {
    const { flow, profiles, storage, toasts } = setup({ [STORAGE_KEYS.referralCode]: 'K7QX2M' });
    profiles.referral = { applied: true, bonus: 25 };

    await flow.completeSignIn();

    expect(profiles.ensured).toEqual(['K7QX2M']);
    expect(storage.get(STORAGE_KEYS.referralCode)).toBeNull();
    expect(toasts.shown.map((t) => [t.title, t.description])).toEqual([
      ['Welcome Bonus!', 'You received 25 bonus credits for signing up with a referral link!'],
    ]);
  });

  it('clears a refused code without a toast', async () => {
    const { flow, profiles, storage, toasts } = setup({ [STORAGE_KEYS.referralCode]: 'K7QX2M' });
    profiles.referral = { applied: false, code: 'REFERRALS.UNKNOWN_CODE', detail: 'No account has this referral code' };

    await flow.completeSignIn();

    expect(storage.get(STORAGE_KEYS.referralCode)).toBeNull();
    expect(toasts.shown).toEqual([]);
  });

  it('keeps the code for the next sign-in when the API cannot be reached, and does not throw', async () => {
    const { flow, profiles, storage } = setup({ [STORAGE_KEYS.referralCode]: 'K7QX2M' });
    profiles.failEnsure = new Error('Request failed');
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      await expect(flow.completeSignIn()).resolves.toBeUndefined();
    } finally {
      console.error = original;
    }
    expect(storage.get(STORAGE_KEYS.referralCode)).toBe('K7QX2M');
    expect(errors).toHaveLength(1);
  });

  it("carries the landing idea into a new project: without a remembered path it goes to /creation/new", async () => {
    const { flow, storage } = setup();
    new StoredSavedPrompts(storage).set(HOME_PROMPT_KEY, 'A habit tracker');

    await flow.completeSignIn();
    expect(flow.takeReturnTo()).toBe('/creation/new');
    // The idea stays saved until the creation page has made the project from it.
    expect(new StoredSavedPrompts(storage).get(HOME_PROMPT_KEY)).toBe('A habit tracker');
  });

  it('a remembered path wins over the landing idea', () => {
    const { flow, storage } = setup();
    new StoredSavedPrompts(storage).set(HOME_PROMPT_KEY, 'A habit tracker');
    flow.rememberReturnTo('/settings?tab=referrals');
    expect(flow.takeReturnTo()).toBe('/settings?tab=referrals');
  });
});

describe('return path', () => {
  it('takeReturnTo consumes the remembered path', () => {
    const { flow, storage } = setup();
    flow.rememberReturnTo('/builder/p1?tab=code');
    expect(flow.takeReturnTo()).toBe('/builder/p1?tab=code');
    expect(storage.snapshot()).toEqual({});
    expect(flow.takeReturnTo()).toBe('/');
  });

  it.each([
    [null, '/'],
    ['/settings?tab=referrals', '/settings?tab=referrals'],
    ['https://evil.example/phish', '/'],
    ['//evil.example/phish', '/'],
    ['/\\evil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['/login', '/'],
    ['/verify?email=a@b.co', '/'],
    ['/get-started', '/'],
    ['/auth/callback#access_token=x', '/'],
    ['/loginx', '/loginx'],
  ])('safeReturnPath(%p) is %p', (raw, expected) => {
    expect(safeReturnPath(raw)).toBe(expected);
  });

  it('inProgress is set by begin and cleared by end', () => {
    const { flow } = setup();
    flow.begin();
    expect(flow.inProgress).toBe(true);
    flow.end();
    expect(flow.inProgress).toBe(false);
  });
});

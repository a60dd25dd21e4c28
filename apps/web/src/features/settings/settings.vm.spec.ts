import { describe, expect, it } from '@jest/globals';
import { PROFILE_ROLE_VALUES } from '@kiln/domain';
import { ROLES } from '../auth/profile-setup.vm';
import { ApiError } from '../../app/ports';
import type { CurrentPlanDto, PlanDto, PlansApi } from '../../api/plans.api';
import type { EnsureProfileResult, ProfileApi, ProfileChanges, ProfileDto } from '../../app/ports';
import type { ReferralStatsDto, ReferralsApi } from '../../api/referrals.api';
import type { UsageApi, UsageStatsDto } from '../../api/usage.api';
import { profileDto, referralsDto, usageDto } from '../../testing/api-fixtures';
import { ManualTimers } from '../../testing/auth-fakes';
import { FakeClipboard, FakeNavigation, FakeSession, FakeToasts, RecordingLogger, environment } from '../../testing/ui-fakes';
import { FakePaymentsApi } from '../../testing/billing-fakes';
import { PlanUsageVm } from '../billing/plan-usage.vm';
import { SubscriptionStore } from '../billing/subscription.store';
import { SettingsVm, tabFromQuery } from './settings.vm';

const FREE: CurrentPlanDto = { id: 'free', name: 'Free', price: 0, currency: 'USD', billing_interval: null };
const PRO: CurrentPlanDto = { id: 'pro_monthly', name: 'Pro Monthly', price: 25, currency: 'USD', billing_interval: 'monthly' };
const PRO_INR: CurrentPlanDto = { id: 'pro_annual', name: 'Pro Annual', price: 24000, currency: 'INR', billing_interval: 'annual' };

class FakeProfileApi implements ProfileApi {
  readonly patches: ProfileChanges[] = [];
  constructor(
    public profile: ProfileDto | Error,
    private readonly updateError: Error | null = null,
  ) {}
  async get(): Promise<ProfileDto> {
    if (this.profile instanceof Error) throw this.profile;
    return this.profile;
  }
  async update(patch: ProfileChanges): Promise<ProfileDto> {
    this.patches.push(patch);
    if (this.updateError !== null) throw this.updateError;
    const current = this.profile as ProfileDto;
    this.profile = { ...current, ...patch } as ProfileDto;
    return this.profile;
  }
  async ensure(): Promise<EnsureProfileResult> {
    throw new Error('not used');
  }
}

function setup(
  options: {
    profile?: ProfileDto | Error;
    usage?: UsageStatsDto | Error;
    plan?: CurrentPlanDto;
    referrals?: ReferralStatsDto | Error;
    clipboardFails?: boolean;
    updateError?: Error;
  } = {},
) {
  const profileApi = new FakeProfileApi(options.profile ?? profileDto(), options.updateError ?? null);
  const usageApi: UsageApi = {
    stats: async () => {
      const u = options.usage ?? usageDto();
      if (u instanceof Error) throw u;
      return u;
    },
  };
  const plansApi: PlansApi = { list: async (): Promise<PlanDto[]> => [], current: async () => options.plan ?? FREE };
  const referralsApi: ReferralsApi = {
    stats: async () => {
      const r = options.referrals ?? referralsDto();
      if (r instanceof Error) throw r;
      return r;
    },
  };
  const toasts = new FakeToasts();
  const clipboard = new FakeClipboard(options.clipboardFails ?? false);
  const navigation = new FakeNavigation();
  const logger = new RecordingLogger();
  const store = new SubscriptionStore(new FakeSession('signed-in'), profileApi, plansApi, usageApi, new ManualTimers(), new RecordingLogger());
  const plan = new PlanUsageVm(store, usageApi, plansApi, new FakePaymentsApi(), toasts, navigation, logger);
  const vm = new SettingsVm(profileApi, referralsApi, store, plan, toasts, clipboard, environment({ origin: 'https://kiln.dev' }), logger);
  return { vm, profileApi, store, toasts, clipboard, navigation, logger };
}

async function loaded(options: Parameters<typeof setup>[0] = {}) {
  const s = setup(options);
  await s.vm.load();
  return s;
}

describe('SettingsVm: tabs (SPEC §2)', () => {
  it('?tab=referrals opens the referrals tab; unknown or missing values open the profile', () => {
    expect(tabFromQuery('referrals')).toBe('referrals');
    expect(tabFromQuery('plan')).toBe('plan');
    expect(tabFromQuery('billing')).toBe('profile');
    expect(tabFromQuery(null)).toBe('profile');
  });
});

describe('SettingsVm: button visibility (SPEC §2)', () => {
  it('free plan, no subscription: View Plans, View Pricing Plans, Refer to Friends', async () => {
    const { vm } = await loaded();
    expect(vm.plan.buttons).toEqual({
      viewPlans: true,
      viewPricingPlans: true,
      getMoreCredits: false,
      manageSubscription: false,
      earnMoreCredits: false,
      referToFriends: true,
    });
  });

  it('paid and active with a customer: Get More Credits, Manage Subscription, Earn More Credits', async () => {
    const { vm } = await loaded({
      plan: PRO,
      profile: profileDto({ subscription_plan: 'pro_monthly', subscription_status: 'active', customer_id: 'cus_123' }),
    });
    expect(vm.plan.buttons).toEqual({
      viewPlans: true,
      viewPricingPlans: false,
      getMoreCredits: true,
      manageSubscription: true,
      earnMoreCredits: true,
      referToFriends: false,
    });
  });

  it('paid but not active (past due): Refer to Friends instead of Earn More Credits', async () => {
    const { vm } = await loaded({ plan: PRO, profile: profileDto({ subscription_status: 'past_due', customer_id: 'cus_1' }) });
    expect(vm.plan.buttons.earnMoreCredits).toBe(false);
    expect(vm.plan.buttons.referToFriends).toBe(true);
  });

  it('View Plans is hidden on a limitless plan', async () => {
    const { vm } = await loaded({ plan: PRO, usage: usageDto({ is_limitless_plan: true }) });
    expect(vm.plan.buttons.viewPlans).toBe(false);
  });

  it('Manage Subscription needs a customer id (blank does not count)', async () => {
    expect((await loaded({ profile: profileDto({ customer_id: '  ' }) })).vm.plan.buttons.manageSubscription).toBe(false);
    expect((await loaded({ profile: profileDto({ customer_id: null }) })).vm.plan.buttons.manageSubscription).toBe(false);
  });
});

describe('SettingsVm: credit limit', () => {
  it('is reached at 0 credits on a metered plan, and not before', async () => {
    expect((await loaded({ usage: usageDto({ credits_remaining: 0 }) })).vm.plan.outOfCredits).toBe(true);
    expect((await loaded({ usage: usageDto({ credits_remaining: 1 }) })).vm.plan.outOfCredits).toBe(false);
    expect((await loaded({ usage: usageDto({ credits_remaining: 0, is_unlimited_prompts: true }) })).vm.plan.outOfCredits).toBe(false);
  });
});

describe('SettingsVm: usage numbers', () => {
  it('shows used / limit with the API percentage', async () => {
    const { vm } = await loaded();
    expect(vm.plan.usageRows).toEqual([
      { key: 'prompts', label: 'Prompts this cycle', used: 2, limit: '5', unlimited: false, percent: 40, tone: 'default' },
      { key: 'private', label: 'Private projects', used: 1, limit: '3', unlimited: false, percent: 33, tone: 'default' },
      { key: 'published', label: 'Published projects', used: 0, limit: '0', unlimited: false, percent: 0, tone: 'default' },
    ]);
  });

  it('shows ∞ and an empty bar for unlimited limits (-1 or "unlimited")', async () => {
    const { vm } = await loaded({
      plan: PRO,
      usage: usageDto({
        private_projects_count: 7,
        private_projects_limit: -1,
        is_unlimited_private_projects: true,
        private_projects_percent_used: 0,
        published_projects_count: 2,
        published_projects_limit: 'unlimited',
        is_unlimited_published_projects: true,
      }),
    });
    const [, priv, pub] = vm.plan.usageRows;
    expect(priv).toMatchObject({ used: 7, limit: '∞', unlimited: true, percent: 0 });
    expect(pub).toMatchObject({ used: 2, limit: '∞', unlimited: true, percent: 0 });
  });

  it('computes the percentage with the domain rule when the API leaves it out, clamped to 100', async () => {
    const { vm } = await loaded({
      usage: usageDto({ prompts_used: 7, prompts_total: 5, prompts_percent_used: undefined }),
    });
    expect(vm.plan.usageRows[0]).toMatchObject({ used: 7, limit: '5', percent: 100, tone: 'destructive' });
  });

  it('warns from 80% used', async () => {
    const { vm } = await loaded({ usage: usageDto({ prompts_used: 4, prompts_percent_used: 80 }) });
    expect(vm.plan.usageRows[0]?.tone).toBe('warning');
  });

  it('credits remaining with the plan / referral / add-on breakdown', async () => {
    const { vm } = await loaded({ usage: usageDto({ credits_remaining: 530, credits_from_plan: 5, credits_from_referrals: 25, credits_from_add_ons: 500 }) });
    expect(vm.plan.credits).toEqual({ total: 530, plan: 5, referral: 25, addOn: 500 });
  });

  it('formats the current plan price in its currency', async () => {
    expect((await loaded()).vm.plan.planPrice).toBe('$0 / month');
    expect((await loaded({ plan: PRO })).vm.plan.planPrice).toBe('$25 / month');
    expect((await loaded({ plan: PRO_INR })).vm.plan.planPrice).toBe('₹24,000 / year');
  });

  it('a failed usage load is logged and leaves the other sections working', async () => {
    const { vm, logger } = await loaded({ usage: new Error('down') });
    expect(vm.plan.status).toBe('error');
    expect(vm.profileStatus).toBe('ready');
    expect(logger.lines).toEqual(['error: Error loading subscription data: down']);
    expect(vm.plan.loadError).toBe('Error loading subscription data: down');
  });
});

describe('SettingsVm: referral button', () => {
  it('Refer to Friends opens /settings?tab=referrals in a new window', async () => {
    const { vm, navigation } = await loaded();
    vm.plan.referToFriends();
    expect(navigation.opened).toEqual(['/settings?tab=referrals']);
  });
});

describe('SettingsVm: referrals', () => {
  it('the share link is this site plus ?ref=code (SPEC §2)', async () => {
    const { vm } = await loaded();
    expect(vm.shareLink).toBe('https://kiln.dev/?ref=K7QX2M');
    expect(vm.referrals).toMatchObject({ referred_count: 1, credits_earned: 25 });
  });

  it("copying puts the link on the clipboard and says 'Link Copied!'", async () => {
    const { vm, clipboard, toasts } = await loaded();
    await vm.copyShareLink();
    expect(clipboard.written).toEqual(['https://kiln.dev/?ref=K7QX2M']);
    expect(toasts.shown).toEqual([{ title: 'Link Copied!', description: 'Referral link copied to clipboard', variant: 'success' }]);
  });

  it("a refused clipboard says 'Copy Failed'", async () => {
    const { vm, toasts } = await loaded({ clipboardFails: true });
    await vm.copyShareLink();
    expect(toasts.shown).toEqual([{ title: 'Copy Failed', description: 'Please copy the link manually', variant: 'error' }]);
  });
});

describe('SettingsVm: profile form', () => {
  it('keeps the loaded data in the shared SubscriptionStore', async () => {
    const { vm, store } = await loaded({ plan: PRO });
    expect(store.profile).toBe(vm.profile);
    expect(store.currentPlan).toEqual(PRO);
    expect(store.usage).toBe(vm.plan.usage);
  });

  it('fills the form from the profile and saves only when something changed', async () => {
    const { vm, profileApi, toasts } = await loaded();
    expect(vm.form).toEqual({ name: 'Ada Lovelace', organization: 'Analytical Engines Ltd', role: 'other', dateOfBirth: '', preferredCurrency: 'USD' });
    expect(vm.canSave).toBe(false);

    vm.setField('name', '  Ada King ');
    vm.setField('organization', '');
    expect(vm.canSave).toBe(true);
    await vm.saveProfile();

    expect(profileApi.patches).toEqual([
      { name: 'Ada King', organization: null, role: 'other', date_of_birth: null, preferred_currency: 'USD' },
    ]);
    expect(vm.isDirty).toBe(false);
    expect(toasts.shown[0]).toMatchObject({ title: 'Profile updated', variant: 'success' });
  });

  it('offers the same roles as sign-up, and saves the chosen one', async () => {
    const { vm, profileApi } = await loaded({ profile: profileDto({ role: 'designer' }) });
    expect(vm.roles).toBe(ROLES);
    expect(vm.roles.map((r) => r.value)).toEqual(PROFILE_ROLE_VALUES);
    expect(vm.form.role).toBe('designer');
    vm.setField('role', 'founder');
    await vm.saveProfile();
    expect(profileApi.patches[0]).toMatchObject({ role: 'founder' });
  });

  it('a role typed before there was a list reads as Other', async () => {
    const { vm } = await loaded({ profile: profileDto({ role: 'Chief Tinkerer' }) });
    expect(vm.form.role).toBe('other');
  });

  it("shows the API's reason when saving fails", async () => {
    const { vm } = await loaded({ updateError: new ApiError('name: must be shorter than 200 characters', 400, 'VALIDATION_FAILED', null) });
    vm.setField('name', 'x');
    await vm.saveProfile();
    expect(vm.saveError).toBe('name: must be shorter than 200 characters');
    expect(vm.saving).toBe(false);
  });
});

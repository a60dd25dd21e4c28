import { ConsumePromptCredit } from '../credits/consume-prompt-credit.use-case.js';
import { GetUsageStats } from '../credits/get-usage-stats.use-case.js';
import { GrantAddOnCredits } from '../credits/grant-add-on-credits.use-case.js';
import { GrantMonthlyAllowance } from '../credits/grant-monthly-allowance.use-case.js';
import { RefundPromptCredit } from '../credits/refund-prompt-credit.use-case.js';
import { ChangePlan } from '../accounts/change-plan.use-case.js';
import { PlanCatalog } from '../plans/plan-catalog.js';
import { EnsureProfileOnSignIn } from '../accounts/ensure-profile-on-sign-in.use-case.js';
import { CreateProject } from '../projects/create-project.use-case.js';
import { CheckPublishAllowed } from '../hosting/check-publish-allowed.use-case.js';
import { ApplyReferral } from '../referrals/apply-referral.use-case.js';
import { GenerateReferralCode } from '../referrals/generate-referral-code.use-case.js';
import { BuyAddOnCredits } from '../billing/buy-add-on-credits.use-case.js';
import { CancelSubscription } from '../billing/cancel-subscription.use-case.js';
import { ForceUpdateSubscription } from '../billing/force-update-subscription.use-case.js';
import { HandlePaymentEvent } from '../billing/handle-payment-event.use-case.js';
import { OpenCustomerPortal } from '../billing/open-customer-portal.use-case.js';
import { StartCheckout } from '../billing/start-checkout.use-case.js';
import { ListInvoices } from '../billing/list-invoices.use-case.js';
import { InMemoryPaymentGateway, InMemoryProcessedPaymentEvents, InMemorySubscriptionStateVersions } from './in-memory-payments.js';
import type { RandomSource } from '../shared/random.port.js';
import type { AccountActivityListener } from '../shared/account-activity.port.js';
import { FixedClock } from './fixed-clock.js';
import { InMemoryCreditLedger, type Pause } from './in-memory-credit-ledger.js';
import { InMemoryProfileRepository } from './in-memory-profile-repository.js';
import { InMemoryProjectRepository } from './in-memory-project-repository.js';
import { InMemoryReferralCodes } from './in-memory-referral-codes.js';
import { InMemoryUnitOfWork } from './in-memory-unit-of-work.js';
import { SeededRandom } from './scripted-random.js';
import { SequentialIds } from './sequential-ids.js';

export interface TestKitOptions {
  readonly pause?: Pause;
  readonly clock?: FixedClock;
  readonly random?: RandomSource;
  readonly plans?: PlanCatalog;
  /** Told of sign-ups, plan changes, purchases and prompts used (marketing's server events). */
  readonly activity?: AccountActivityListener;
}

/** Every use case wired to in-memory adapters: the composition root of domain tests. */
export function createTestKit(options: TestKitOptions = {}) {
  const clock = options.clock ?? new FixedClock();
  const random = options.random ?? new SeededRandom(42);
  const plans = options.plans ?? PlanCatalog.standard();
  const profiles = new InMemoryProfileRepository(options.pause);
  const projects = new InMemoryProjectRepository(options.pause);
  const ledger = new InMemoryCreditLedger(options.pause);
  const referralCodes = new InMemoryReferralCodes(profiles);
  const uow = new InMemoryUnitOfWork();
  const ids = new SequentialIds('project');
  const activity = options.activity;

  const grantMonthlyAllowance = new GrantMonthlyAllowance(profiles, ledger, plans, clock);
  const generateReferralCode = new GenerateReferralCode(referralCodes, random);
  const applyReferral = new ApplyReferral(profiles, ledger, uow, clock);
  const changePlan = new ChangePlan(profiles, plans, grantMonthlyAllowance, uow, clock, new SequentialIds('change'), activity);
  const grantAddOnCredits = new GrantAddOnCredits(profiles, ledger, clock, activity);
  const payments = new InMemoryPaymentGateway();
  const processedPaymentEvents = new InMemoryProcessedPaymentEvents();
  const handlePaymentEvent = new HandlePaymentEvent(
    processedPaymentEvents,
    new InMemorySubscriptionStateVersions(),
    profiles,
    plans,
    changePlan,
    grantAddOnCredits,
    uow,
  );
  const billingIds = new SequentialIds('billing');
  return {
    payments,
    processedPaymentEvents,
    handlePaymentEvent,
    startCheckout: new StartCheckout(profiles, plans, payments, billingIds),
    buyAddOnCredits: new BuyAddOnCredits(profiles, payments, billingIds),
    openCustomerPortal: new OpenCustomerPortal(profiles, payments, billingIds),
    listInvoices: new ListInvoices(profiles, payments),
    cancelSubscription: new CancelSubscription(profiles, payments, handlePaymentEvent, uow, clock),
    forceUpdateSubscription: new ForceUpdateSubscription(profiles, plans, payments, handlePaymentEvent, uow, clock),
    clock,
    random,
    plans,
    profiles,
    projects,
    ledger,
    referralCodes,
    grantMonthlyAllowance,
    generateReferralCode,
    applyReferral,
    ensureProfileOnSignIn: new EnsureProfileOnSignIn(profiles, generateReferralCode, grantMonthlyAllowance, applyReferral, clock, activity),
    consumePromptCredit: new ConsumePromptCredit(profiles, ledger, grantMonthlyAllowance, clock, activity),
    refundPromptCredit: new RefundPromptCredit(ledger, clock),
    grantAddOnCredits,
    changePlan,
    getUsageStats: new GetUsageStats(profiles, projects, ledger, grantMonthlyAllowance, plans),
    createProject: new CreateProject(profiles, projects, plans, ids, clock),
    checkPublishAllowed: new CheckPublishAllowed(profiles, projects, plans),
  };
}

export type TestKit = ReturnType<typeof createTestKit>;

/** Signs a user up (creating their profile) and returns the profile. */
export async function signUp(kit: TestKit, userId: string, extra: { fullName?: string; ref?: string } = {}) {
  const result = await kit.ensureProfileOnSignIn.execute({
    userId,
    email: `${userId}@example.com`,
    metadata: extra.fullName ? { full_name: extra.fullName } : {},
    storedReferralCode: extra.ref ?? null,
  });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

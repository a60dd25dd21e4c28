import { describe, expect, it } from '@jest/globals';
import { TYPES } from './app/ports';
import { createContainer } from './container';
import { AuthCallbackVm } from './features/auth/auth-callback.vm';
import { ConfirmVm } from './features/auth/confirm.vm';
import { GetStartedVm } from './features/auth/get-started.vm';
import { LoginVm } from './features/auth/login.vm';
import { PostSignInFlow } from './features/auth/post-sign-in.flow';
import { ProfileSetupVm } from './features/auth/profile-setup.vm';
import { ResetPasswordVm } from './features/auth/reset-password.vm';
import { SignupVm } from './features/auth/signup.vm';
import { VerifyVm } from './features/auth/verify.vm';
import { AddOnCreditsVm } from './features/billing/add-on-credits.vm';
import { BillingActionsVm } from './features/billing/billing-actions.vm';
import { PlanUsageVm } from './features/billing/plan-usage.vm';
import { ReferralBonusWatcher } from './features/billing/referral-bonus.watcher';
import { CheckoutReturnFlow } from './features/billing/checkout-return.flow';
import { SubscriptionStore } from './features/billing/subscription.store';
import { UpgradeDialogStore } from './features/billing/upgrade-dialog.store';
import { CreationVm } from './features/creation/creation.vm';
import { WizardVm } from './features/wizard/wizard.vm';
import { DatabaseVm } from './features/databases/database.vm';
import { ProjectDatabaseStore } from './features/databases/project-database.store';
import { BuilderVm } from './features/builder/builder.vm';
import { ChatVm } from './features/builder/chat/chat.vm';
import { HomeVm } from './features/home/home.vm';
import { ProjectPreviewVm } from './features/hosting/project-preview.vm';
import { PublishVm } from './features/hosting/publish.vm';
import { ProjectSettingsVm } from './features/builder/project-settings/project-settings.vm';
import { PricingVm } from './features/pricing/pricing.vm';
import { DeleteAccountVm } from './features/settings/delete-account.vm';
import { SettingsVm } from './features/settings/settings.vm';
import { TwoFactorVm } from './features/settings/two-factor.vm';
import { ScriptedTwoFactor } from './testing/two-factor-fakes';
import { ReferralCapture } from './features/referral-capture/referral-capture';
import { RouteGuardVm } from './routes/route-guard.vm';
import { InMemoryKeyValueStorage } from './storage/memory-storage';
import { ScriptedSession } from './testing/auth-fakes';

/** The real composition root with the browser-bound session and storage replaced. */
const container = () =>
  createContainer({ session: new ScriptedSession('signed-out'), twoFactor: new ScriptedTwoFactor(), storage: new InMemoryKeyValueStorage() });

describe('createContainer', () => {
  it('resolves a fresh HomeVm for each request', () => {
    const c = container();

    const first = c.get(HomeVm);
    const second = c.get(HomeVm);

    expect(first).toBeInstanceOf(HomeVm);
    expect(second).not.toBe(first);
  });

  it.each([
    ['RouteGuardVm', RouteGuardVm],
    ['GetStartedVm', GetStartedVm],
    ['SignupVm', SignupVm],
    ['LoginVm', LoginVm],
    ['VerifyVm', VerifyVm],
    ['ResetPasswordVm', ResetPasswordVm],
    ['ConfirmVm', ConfirmVm],
    ['ProfileSetupVm', ProfileSetupVm],
    ['AuthCallbackVm', AuthCallbackVm],
    ['PricingVm', PricingVm],
    ['SettingsVm', SettingsVm],
    ['TwoFactorVm', TwoFactorVm],
    ['DeleteAccountVm', DeleteAccountVm],
    ['CreationVm', CreationVm],
    ['WizardVm', WizardVm],
    ['BuilderVm', BuilderVm],
    ['ChatVm', ChatVm],
    ['BillingActionsVm', BillingActionsVm],
    ['PlanUsageVm', PlanUsageVm],
    ['ReferralBonusWatcher', ReferralBonusWatcher],
    ['CheckoutReturnFlow', CheckoutReturnFlow],
    ['PublishVm', PublishVm],
    ['ProjectSettingsVm', ProjectSettingsVm],
    ['ProjectPreviewVm', ProjectPreviewVm],
    ['DatabaseVm', DatabaseVm],
  ] as const)('resolves %s with all its ports', (_name, vm) => {
    const c = container();
    expect(c.get<unknown>(vm)).toBeInstanceOf(vm);
  });

  it('shares one session, HTTP client, post-sign-in flow and referral capture', () => {
    const c = container();
    expect(c.get(TYPES.Session)).toBe(c.get(TYPES.Session));
    expect(c.get(TYPES.Http)).toBe(c.get(TYPES.Http));
    expect(c.get(PostSignInFlow)).toBe(c.get(PostSignInFlow));
    expect(c.get(ReferralCapture)).toBe(c.get(ReferralCapture));
    expect(c.get(TYPES.Toasts)).toBe(c.get(TYPES.Toasts));
  });

  it('shares one sandbox API and one realtime feed client; each builder gets its own view-model', () => {
    const c = container();
    expect(c.get(TYPES.SandboxApi)).toBe(c.get(TYPES.SandboxApi));
    expect(c.get(TYPES.SandboxFeed)).toBe(c.get(TYPES.SandboxFeed));
    expect(c.get(BuilderVm)).not.toBe(c.get(BuilderVm));
  });

  it('shares one subscription state and one of each billing dialog across the app', () => {
    const c = container();
    expect(c.get(SubscriptionStore)).toBe(c.get(SubscriptionStore));
    expect(c.get(UpgradeDialogStore)).toBe(c.get(UpgradeDialogStore));
    expect(c.get(AddOnCreditsVm)).toBe(c.get(AddOnCreditsVm));
    expect(c.get(CheckoutReturnFlow)).toBe(c.get(CheckoutReturnFlow));
  });

  it('reads AI turns through the one HTTP client (streaming, never retried); each builder gets its own chat', () => {
    const c = container();
    expect(c.get(TYPES.StreamingHttp)).toBe(c.get(TYPES.Http));
    expect(c.get(TYPES.AiApi)).toBe(c.get(TYPES.AiApi));
    expect(c.get(ChatVm)).not.toBe(c.get(ChatVm));
  });

  it('shares one project database store (SPEC §3 databaseConnected) between the Database and Publish dialogs', () => {
    const c = container();
    expect(c.get(ProjectDatabaseStore)).toBe(c.get(ProjectDatabaseStore));
    expect(c.get(TYPES.DatabasesApi)).toBe(c.get(TYPES.DatabasesApi));
    expect(c.get(DatabaseVm).store).toBe(c.get(ProjectDatabaseStore));
    expect(c.get(DatabaseVm)).not.toBe(c.get(DatabaseVm));
  });
});

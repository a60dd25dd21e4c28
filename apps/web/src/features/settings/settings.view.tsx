import { REFERRAL_BONUS_CREDITS } from '@kiln/domain';
import { CalendarClock, Copy, CreditCard, ExternalLink, Gift, Sparkles, User, Users } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { type FormEvent, type ReactNode, useEffect, useId } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { Button, ButtonLink } from '../../ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../ui/card';
import { Dialog } from '../../ui/dialog';
import { Input, Select } from '../../ui/input';
import { Field } from '../../ui/label';
import { Progress } from '../../ui/progress';
import { Skeleton } from '../../ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/tabs';
import { useVm } from '../../use-vm';
import { AddOnCreditsVm } from '../billing/add-on-credits.vm';
import { BillingActionsVm } from '../billing/billing-actions.vm';
import { UpgradeDialogStore } from '../billing/upgrade-dialog.store';
import { DeleteAccountSection } from './delete-account.view';
import { TwoFactorSection } from './two-factor.view';
import { type SectionStatus, type SettingsTab, SettingsVm, tabFromQuery } from './settings.vm';

const dateFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'long', year: 'numeric' });
const formatDate = (iso: string | null) => (iso === null ? null : dateFormat.format(new Date(iso)));
/** Settings tabs: a little less padding on phones, so the three fit side by side. */
const TAB = 'px-2 sm:px-3';

export const SettingsView = observer(function SettingsView() {
  const vm = useVm(SettingsVm);
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');

  useEffect(() => {
    void vm.load();
  }, [vm]);
  useEffect(() => {
    vm.selectTab(tabFromQuery(tabParam));
  }, [vm, tabParam]);

  const openTab = (tab: SettingsTab) => {
    vm.selectTab(tab);
    setParams(tab === 'profile' ? {} : { tab }, { replace: true });
  };

  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6 sm:py-14">
      <header>
        <h1 className="text-3xl font-semibold tracking-tight">Settings</h1>
        <p className="mt-2 text-muted-foreground">Manage your profile, plan and referrals.</p>
      </header>
      <Tabs value={vm.tab} onValueChange={(value) => openTab(tabFromQuery(value))} className="mt-8">
        {/* On phones the three tabs share the width as words only: with icons they do not fit 375 px. */}
        <TabsList aria-label="Settings sections">
          <TabsTrigger value="profile" className={TAB}>
            <User aria-hidden className="max-sm:hidden" />
            Profile
          </TabsTrigger>
          <TabsTrigger value="plan" className={TAB}>
            <CreditCard aria-hidden className="max-sm:hidden" />
            Plan &amp; usage
          </TabsTrigger>
          <TabsTrigger value="referrals" className={TAB}>
            <Gift aria-hidden className="max-sm:hidden" />
            Referrals
          </TabsTrigger>
        </TabsList>
        <TabsContent value="profile">
          <ProfileTab vm={vm} />
          <TwoFactorSection />
          <DeleteAccountSection />
        </TabsContent>
        <TabsContent value="plan">
          <PlanTab vm={vm} onEarnMoreCredits={() => openTab('referrals')} />
        </TabsContent>
        <TabsContent value="referrals">
          <ReferralsTab vm={vm} />
        </TabsContent>
      </Tabs>
    </div>
  );
});

function SectionError({ title, onRetry }: { title: string; onRetry: () => void }) {
  return (
    <Alert
      tone="destructive"
      title={title}
      action={
        <Button variant="outline" size="sm" onClick={onRetry}>
          Try again
        </Button>
      }
    >
      Check your connection and try again.
    </Alert>
  );
}

function Loading({ status, children, error }: { status: SectionStatus; children: ReactNode; error: ReactNode }) {
  if (status === 'error') return <>{error}</>;
  if (status === 'loading')
    return (
      <Card className="grid gap-4 p-6" aria-busy>
        <Skeleton className="h-5 w-40" />
        <Skeleton className="h-4 w-64" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
      </Card>
    );
  return <>{children}</>;
}

// ── Profile ─────────────────────────────────────────────────────────────────

const ProfileTab = observer(function ProfileTab({ vm }: { vm: SettingsVm }) {
  const id = useId();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void vm.saveProfile();
  };
  return (
    <Loading status={vm.profileStatus} error={<SectionError title="Error loading profile" onRetry={() => void vm.loadProfile()} />}>
      <Card>
        <form onSubmit={onSubmit} noValidate>
          <CardHeader>
            <CardTitle>Profile</CardTitle>
            <CardDescription>How you appear in Kiln and how we bill you.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5 sm:grid-cols-2">
            <Field label="Full name" htmlFor={`${id}-name`}>
              <Input id={`${id}-name`} value={vm.form.name} autoComplete="name" maxLength={200} onChange={(e) => vm.setField('name', e.target.value)} />
            </Field>
            <Field label="Email" htmlFor={`${id}-email`} hint="Used to sign in. It cannot be changed here.">
              <Input id={`${id}-email`} value={vm.profile?.email ?? ''} readOnly type="email" />
            </Field>
            <Field label="Organization" htmlFor={`${id}-org`}>
              <Input
                id={`${id}-org`}
                value={vm.form.organization}
                autoComplete="organization"
                maxLength={200}
                placeholder="Optional"
                onChange={(e) => vm.setField('organization', e.target.value)}
              />
            </Field>
            <Field label="Role" htmlFor={`${id}-role`}>
              <Select id={`${id}-role`} value={vm.form.role} onChange={(e) => vm.setField('role', e.target.value)}>
                {vm.roles.map((role) => (
                  <option key={role.value} value={role.value}>
                    {role.label}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Date of birth" htmlFor={`${id}-dob`}>
              <Input id={`${id}-dob`} type="date" value={vm.form.dateOfBirth} onChange={(e) => vm.setField('dateOfBirth', e.target.value)} />
            </Field>
            <Field label="Preferred currency" htmlFor={`${id}-currency`}>
              <Select
                id={`${id}-currency`}
                value={vm.form.preferredCurrency}
                onChange={(e) => vm.setField('preferredCurrency', e.target.value === 'INR' ? 'INR' : 'USD')}
              >
                <option value="USD">US dollar ($ USD)</option>
                <option value="INR">Indian rupee (₹ INR)</option>
              </Select>
            </Field>
            {vm.saveError === null ? null : (
              <p role="alert" className="text-sm text-destructive sm:col-span-2">
                {vm.saveError}
              </p>
            )}
          </CardContent>
          <CardFooter className="justify-end">
            <Button variant="ghost" disabled={!vm.isDirty || vm.saving} onClick={() => vm.resetForm()}>
              Cancel
            </Button>
            <Button type="submit" disabled={!vm.canSave} loading={vm.saving}>
              Save changes
            </Button>
          </CardFooter>
        </form>
      </Card>
    </Loading>
  );
});

// ── Plan & usage ────────────────────────────────────────────────────────────

const PlanTab = observer(function PlanTab({ vm, onEarnMoreCredits }: { vm: SettingsVm; onEarnMoreCredits: () => void }) {
  const billing = useVm(BillingActionsVm);
  const addOn = useVm(AddOnCreditsVm);
  const upgrade = useVm(UpgradeDialogStore);
  const buttons = vm.buttons;
  const credits = vm.credits;
  const cycleEnd = formatDate(vm.cycleEnd);
  return (
    <Loading status={vm.usageStatus} error={<SectionError title="Error loading subscription data" onRetry={() => void vm.loadUsage()} />}>
      <div className="grid gap-6">
        <Card>
          <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
            <div className="grid gap-1.5">
              <CardDescription>Current plan</CardDescription>
              <div className="flex flex-wrap items-center gap-2">
                <CardTitle className="text-2xl">{vm.planName}</CardTitle>
                {vm.subscriptionActive ? <Badge tone="success">Active</Badge> : null}
              </div>
              <p className="text-sm text-muted-foreground">{vm.planPrice}</p>
            </div>
            <div className="flex flex-wrap gap-2">
              {buttons.manageSubscription ? (
                <Button variant="outline" loading={billing.openingPortal} onClick={() => void billing.manageSubscription()}>
                  Manage Subscription
                </Button>
              ) : null}
              {buttons.viewPlans ? (
                <ButtonLink to="/pricing" variant="outline">
                  View Plans
                </ButtonLink>
              ) : null}
            </div>
          </CardHeader>
          {billing.portalError === null && !billing.canCancel ? null : (
            <CardFooter className="flex-wrap justify-between gap-3 border-t border-border pt-4 sm:pt-5">
              {billing.portalError === null ? (
                <span />
              ) : (
                <p role="alert" className="text-sm text-destructive">
                  {billing.portalError}
                </p>
              )}
              {billing.canCancel ? (
                <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive" onClick={billing.askToCancel}>
                  Cancel subscription
                </Button>
              ) : null}
            </CardFooter>
          )}
        </Card>
        <CancelSubscriptionDialog billing={billing} planName={vm.planName} />

        <div className="grid gap-6 md:grid-cols-5">
          <Card className="flex flex-col md:col-span-3">
            <CardHeader>
              <CardTitle>Usage limits</CardTitle>
              <CardDescription>What this billing cycle has used so far.</CardDescription>
            </CardHeader>
            <CardContent className="flex-1">
              <ul className="grid gap-6">
                {vm.usageRows.map((row) => (
                  <li key={row.key} className="grid gap-2.5">
                    <div className="flex items-baseline justify-between gap-3 text-sm">
                      <span className="font-medium">{row.label}</span>
                      <span className="tabular-nums text-muted-foreground">
                        <span className="font-medium text-foreground">{row.used}</span> / {row.limit}
                        {row.unlimited ? <span className="sr-only"> (unlimited)</span> : null}
                      </span>
                    </div>
                    <Progress value={row.percent} tone={row.tone} label={`${row.label}: ${row.unlimited ? 'unlimited' : `${row.percent}% used`}`} />
                  </li>
                ))}
              </ul>
            </CardContent>
            {cycleEnd === null ? null : (
              <CardFooter className="text-sm text-muted-foreground">
                <CalendarClock className="size-4" aria-hidden />
                Your prompt allowance renews on {cycleEnd}.
              </CardFooter>
            )}
          </Card>

          <Card className="flex flex-col md:col-span-2">
            <CardHeader>
              <CardTitle>Credits remaining</CardTitle>
              <CardDescription>One credit per prompt.</CardDescription>
            </CardHeader>
            <CardContent className="flex-1">
              {vm.outOfCredits ? (
                <Alert
                  tone="destructive"
                  title="You've used all your credits"
                  className="mb-4"
                  action={
                    <Button size="sm" variant="brand" onClick={() => void upgrade.open('credit')}>
                      Upgrade
                    </Button>
                  }
                >
                  Upgrade your plan or add credits to keep building.
                </Alert>
              ) : null}
              <p className="text-5xl font-semibold tracking-tight tabular-nums">{credits?.total ?? 0}</p>
              <dl className="mt-5 grid grid-cols-3 gap-2 text-center">
                {[
                  { label: 'Plan', value: credits?.plan ?? 0 },
                  { label: 'Referral', value: credits?.referral ?? 0 },
                  { label: 'Add-on', value: credits?.addOn ?? 0 },
                ].map((part) => (
                  <div key={part.label} className="rounded-lg bg-muted px-2 py-2.5">
                    <dt className="text-xs text-muted-foreground">{part.label}</dt>
                    <dd className="mt-0.5 font-semibold tabular-nums">{part.value}</dd>
                  </div>
                ))}
              </dl>
            </CardContent>
            <CardFooter className="flex-col items-stretch">
              {buttons.viewPricingPlans ? (
                <ButtonLink to="/pricing" variant="brand">
                  <Sparkles aria-hidden />
                  View Pricing Plans
                </ButtonLink>
              ) : null}
              {buttons.getMoreCredits ? (
                <Button variant="brand" onClick={addOn.open}>
                  Get More Credits
                </Button>
              ) : null}
              {buttons.earnMoreCredits ? (
                <Button variant="outline" onClick={onEarnMoreCredits}>
                  <Gift aria-hidden />
                  Earn More Credits
                </Button>
              ) : null}
              {buttons.referToFriends ? (
                <Button variant="outline" onClick={() => vm.referToFriends()}>
                  <Users aria-hidden />
                  Refer to Friends
                  <ExternalLink className="size-3.5 opacity-60" aria-hidden />
                  <span className="sr-only">(opens in a new window)</span>
                </Button>
              ) : null}
            </CardFooter>
          </Card>
        </div>
      </div>
    </Loading>
  );
});

const CancelSubscriptionDialog = observer(function CancelSubscriptionDialog({ billing, planName }: { billing: BillingActionsVm; planName: string }) {
  return (
    <Dialog
      open={billing.confirmingCancel}
      onClose={billing.dismissCancel}
      locked={billing.canceling}
      title="Cancel your subscription?"
      description={`${planName} stays active until the end of the current billing period, then your account moves to the Free plan. Add-on credits you bought are kept.`}
      footer={
        <>
          <Button variant="ghost" onClick={billing.dismissCancel} disabled={billing.canceling} data-autofocus>
            Keep subscription
          </Button>
          <Button variant="destructive" loading={billing.canceling} onClick={() => void billing.confirmCancel()}>
            Cancel subscription
          </Button>
        </>
      }
    >
      {billing.cancelError === null ? null : (
        <p role="alert" className="text-sm text-destructive">
          {billing.cancelError}
        </p>
      )}
    </Dialog>
  );
});

// ── Referrals ───────────────────────────────────────────────────────────────

const ReferralsTab = observer(function ReferralsTab({ vm }: { vm: SettingsVm }) {
  const id = useId();
  const r = vm.referrals;
  return (
    <Loading status={vm.referralsStatus} error={<SectionError title="Error loading referrals" onRetry={() => void vm.loadReferrals()} />}>
      <div className="grid gap-6">
        <Card className="overflow-hidden">
          <div className="border-b border-border bg-[radial-gradient(ellipse_at_top_left,var(--color-brand-soft),transparent_70%)] px-5 py-6 sm:px-6">
            <span className="inline-flex size-10 items-center justify-center rounded-xl bg-background text-brand shadow-xs">
              <Gift className="size-5" aria-hidden />
            </span>
            <h2 className="mt-4 text-xl font-semibold tracking-tight">Invite friends, earn credits</h2>
            <p className="mt-1 max-w-prose text-sm text-muted-foreground">
              You and your friend each get {REFERRAL_BONUS_CREDITS} credits when they sign up with your link.
            </p>
          </div>
          <CardContent className="pt-5 sm:pt-6">
            <Field label="Your referral link" htmlFor={`${id}-link`}>
              <div className="flex min-w-0 flex-col gap-2 sm:flex-row">
                <Input
                  id={`${id}-link`}
                  value={vm.shareLink ?? ''}
                  readOnly
                  onFocus={(e) => e.currentTarget.select()}
                  className="min-w-0 font-mono text-[13px]"
                />
                <Button onClick={() => void vm.copyShareLink()} className="sm:w-36">
                  <Copy aria-hidden />
                  Copy link
                </Button>
              </div>
            </Field>
          </CardContent>
        </Card>
        <dl className="grid gap-6 sm:grid-cols-2">
          <Stat label="Friends referred" value={r?.referred_count ?? 0} icon={<Users className="size-4" aria-hidden />} />
          <Stat label="Credits earned" value={r?.credits_earned ?? 0} icon={<Sparkles className="size-4" aria-hidden />} />
        </dl>
      </div>
    </Loading>
  );
});

function Stat({ label, value, icon }: { label: string; value: number; icon: ReactNode }) {
  return (
    <Card className="p-5 sm:p-6">
      <dt className="flex items-center gap-2 text-sm text-muted-foreground">
        {icon}
        {label}
      </dt>
      <dd className="mt-2 text-3xl font-semibold tracking-tight tabular-nums">{value}</dd>
    </Card>
  );
}

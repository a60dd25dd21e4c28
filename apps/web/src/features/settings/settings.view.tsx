import { REFERRAL_BONUS_CREDITS } from '@kiln/domain';
import { Copy, CreditCard, Gift, Sparkles, User, Users } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { type FormEvent, type ReactNode, useEffect, useId } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../ui/card';
import { Input, Select } from '../../ui/input';
import { Field } from '../../ui/label';
import { SectionError, SectionLoading } from '../../ui/section-state';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/tabs';
import { useVm } from '../../use-vm';
import { PlanUsagePanel } from '../billing/plan-usage.panel';
import { DeleteAccountSection } from './delete-account.view';
import { TwoFactorSection } from './two-factor.view';
import { type SettingsTab, SettingsVm, tabFromQuery } from './settings.vm';
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
          <PlanUsagePanel vm={vm.plan} onEarnMoreCredits={() => openTab('referrals')} />
        </TabsContent>
        <TabsContent value="referrals">
          <ReferralsTab vm={vm} />
        </TabsContent>
      </Tabs>
    </div>
  );
});

// ── Profile ─────────────────────────────────────────────────────────────────

const ProfileTab = observer(function ProfileTab({ vm }: { vm: SettingsVm }) {
  const id = useId();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void vm.saveProfile();
  };
  return (
    <SectionLoading status={vm.profileStatus} error={<SectionError title="Error loading profile" onRetry={() => void vm.loadProfile()} />}>
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
    </SectionLoading>
  );
});

// ── Referrals ───────────────────────────────────────────────────────────────

const ReferralsTab = observer(function ReferralsTab({ vm }: { vm: SettingsVm }) {
  const id = useId();
  const r = vm.referrals;
  return (
    <SectionLoading status={vm.referralsStatus} error={<SectionError title="Error loading referrals" onRetry={() => void vm.loadReferrals()} />}>
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
    </SectionLoading>
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

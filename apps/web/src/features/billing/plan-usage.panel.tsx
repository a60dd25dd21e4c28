/*
 * The plan & usage panel (SPEC §2 usage-limits panel and buttons), in Settings' Plan & usage tab
 * and in the builder's "Plan & usage" dialog. Accessible names the end-to-end tests rely on:
 * buttons "Sync subscription", "Manage Subscription", "View Plans" (a link), "View Pricing Plans"
 * (a link), "Get More Credits", "Earn More Credits", "Refer to Friends"; headings "Usage limits",
 * "Credits remaining", "Billing history" (a list of the same name, each item with "View invoice"
 * when the provider has a page); alert "Plan and usage could not be loaded" carrying the SPEC §8 message.
 */
import { CalendarClock, ExternalLink, Gift, Receipt, RefreshCw, Sparkles, Users } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { Button, ButtonLink } from '../../ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../ui/card';
import { Dialog } from '../../ui/dialog';
import { Progress } from '../../ui/progress';
import { SectionError, SectionLoading } from '../../ui/section-state';
import { useVm } from '../../use-vm';
import { AddOnCreditsVm } from './add-on-credits.vm';
import { BillingActionsVm } from './billing-actions.vm';
import type { PlanUsageVm } from './plan-usage.vm';
import { UpgradeDialogStore } from './upgrade-dialog.store';

const dateFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'long', year: 'numeric' });
const formatDate = (iso: string | null) => (iso === null ? null : dateFormat.format(new Date(iso)));

/**
 * `onEarnMoreCredits`: Settings switches to its referrals tab; elsewhere (the builder) the
 * referrals tab opens in a new window, as Refer to Friends does.
 */
export const PlanUsagePanel = observer(function PlanUsagePanel({ vm, onEarnMoreCredits }: { vm: PlanUsageVm; onEarnMoreCredits?: () => void }) {
  const billing = useVm(BillingActionsVm);
  const addOn = useVm(AddOnCreditsVm);
  const upgrade = useVm(UpgradeDialogStore);
  const buttons = vm.buttons;
  const credits = vm.credits;
  const cycleEnd = formatDate(vm.cycleEnd);
  return (
    <SectionLoading
      status={vm.status}
      error={
        <SectionError title="Plan and usage could not be loaded" onRetry={() => void vm.load()}>
          {vm.loadError}
        </SectionError>
      }
    >
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
              <Button variant="ghost" loading={vm.syncing} onClick={() => void vm.sync()}>
                {vm.syncing ? null : <RefreshCw aria-hidden />}
                Sync subscription
              </Button>
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
                <Button variant="outline" onClick={onEarnMoreCredits ?? (() => vm.referToFriends())}>
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
        <BillingHistory vm={vm} />
      </div>
    </SectionLoading>
  );
});

const BillingHistory = observer(function BillingHistory({ vm }: { vm: PlanUsageVm }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Billing history</CardTitle>
        <CardDescription>Invoices from the payment provider, newest first.</CardDescription>
      </CardHeader>
      <CardContent>
        {vm.invoicesStatus === 'error' ? (
          <SectionError title="Billing history could not be loaded" onRetry={() => void vm.loadInvoices()} />
        ) : vm.invoicesStatus === 'loading' ? (
          <p className="text-sm text-muted-foreground">Loading invoices…</p>
        ) : vm.invoiceRows.length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Receipt className="size-4" aria-hidden />
            No invoices yet.
          </p>
        ) : (
          <ul aria-label="Billing history" className="divide-y divide-border">
            {vm.invoiceRows.map((row) => (
              <li key={row.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-3 text-sm">
                <div className="grid min-w-0 gap-0.5">
                  <span className="truncate font-medium">{row.description}</span>
                  <span className="text-xs text-muted-foreground">{formatDate(row.date)}</span>
                </div>
                <div className="flex items-center gap-3">
                  <span className="font-medium tabular-nums">{row.amount}</span>
                  <Badge tone={row.status === 'paid' ? 'success' : 'outline'}>{row.status}</Badge>
                  {row.url === null ? null : (
                    <a href={row.url} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-brand hover:underline">
                      View invoice
                      <ExternalLink className="size-3.5" aria-hidden />
                    </a>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
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


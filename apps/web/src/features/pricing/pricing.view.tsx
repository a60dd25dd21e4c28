import { ADDON_PACK_CREDITS, type ProMultiplier, REFERRAL_BONUS_CREDITS } from '@kiln/domain';
import { Check, ChevronDown, Minus, Plus } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { Button, ButtonLink } from '../../ui/button';
import { Card } from '../../ui/card';
import { cn } from '../../ui/cn';
import { SegmentedControl } from '../../ui/segmented-control';
import { Skeleton } from '../../ui/skeleton';
import { useVm } from '../../use-vm';
import { MULTIPLIER_OPTIONS, type PlanCard, type PricingInterval, PricingVm } from './pricing.vm';

const FAQ = [
  {
    q: 'What counts as a prompt?',
    a: 'Each message you send or task the assistant runs counts as one prompt, which uses one credit.',
  },
  {
    q: 'What happens when I run out of prompts?',
    a: `Your monthly allowance renews with each billing cycle. Until then you can buy an add-on pack of ${ADDON_PACK_CREDITS} credits, or earn ${REFERRAL_BONUS_CREDITS} credits for each friend you refer.`,
  },
  {
    q: 'Can I cancel at any time?',
    a: 'Yes. Manage or cancel your subscription from Settings; Pro stays active until the end of the period you paid for.',
  },
  {
    q: 'Which currency will I pay in?',
    a: 'Visitors from India see and pay prices in Indian rupees (₹); everyone else pays in US dollars ($).',
  },
] as const;

export const PricingView = observer(function PricingView() {
  const vm = useVm(PricingVm);
  useEffect(() => {
    void vm.load();
  }, [vm]);

  const savings = vm.annualSavingsPercent;

  return (
    <div className="mx-auto max-w-5xl px-4 py-16 sm:px-6 sm:py-24">
      <header className="mx-auto max-w-3xl text-center">
        <p className="text-sm font-medium text-brand">Pricing</p>
        <h1 className="mt-2 text-4xl font-semibold tracking-tight text-balance sm:text-5xl">Plans that grow with your app</h1>
        <p className="mt-4 text-base text-muted-foreground sm:text-lg">{vm.subtitle}</p>
      </header>

      {vm.hasIntervalChoice ? (
        <div className="mt-10 flex flex-col items-center gap-3">
          <SegmentedControl<PricingInterval>
            label="Billing interval"
            value={vm.interval}
            onChange={(interval) => vm.setInterval(interval)}
            options={[
              { value: 'monthly', label: 'Monthly' },
              {
                value: 'annual',
                label: (
                  <>
                    Annual
                    {savings === null ? null : (
                      <Badge tone="success" className="px-2">
                        Save {savings}%
                      </Badge>
                    )}
                  </>
                ),
              },
            ]}
          />
          <SegmentedControl<`${ProMultiplier}`>
            label="Plan multiplier"
            value={`${vm.multiplier}`}
            onChange={(value) => vm.setMultiplier(Number(value) as ProMultiplier)}
            options={MULTIPLIER_OPTIONS.map((m) => ({ value: `${m}` as const, label: `${m}x` }))}
          />
          <p className="text-xs text-muted-foreground">2x and 3x give that many times the prompts, at that many times the price.</p>
        </div>
      ) : null}

      <section aria-label="Plans" aria-busy={vm.status === 'loading'} className="mt-10">
        {vm.status === 'error' ? (
          <Alert
            tone="destructive"
            title={vm.error ?? 'Something went wrong'}
            action={
              <Button variant="outline" size="sm" onClick={() => void vm.load()}>
                Try again
              </Button>
            }
          >
            Check your connection and try again.
          </Alert>
        ) : vm.status !== 'ready' ? (
          <div className="mx-auto grid max-w-4xl gap-6 md:grid-cols-2">
            {[0, 1].map((i) => (
              <Card key={i} className="grid gap-5 p-6 sm:p-8">
                <Skeleton className="h-5 w-24" />
                <Skeleton className="h-10 w-32" />
                <Skeleton className="h-10 w-full" />
                <div className="grid gap-3">
                  {[0, 1, 2, 3].map((j) => (
                    <Skeleton key={j} className="h-4 w-3/4" />
                  ))}
                </div>
              </Card>
            ))}
          </div>
        ) : (
          <ul className="mx-auto grid max-w-4xl gap-6 md:grid-cols-2">
            {vm.cards.map((card) => (
              <li key={card.id} className="flex">
                <PlanCardView card={card} onCheckout={(id) => void vm.checkout(id)} />
              </li>
            ))}
          </ul>
        )}
        <p className="mt-6 text-center text-sm text-muted-foreground">
          Prices in {vm.currency === 'INR' ? 'Indian rupees (₹ INR)' : 'US dollars ($ USD)'}
          {vm.currency === 'INR' ? ' for India' : ''}. Taxes may apply at checkout.
        </p>
      </section>

      <section aria-labelledby="add-ons" className="mx-auto mt-16 max-w-4xl">
        <Card className="flex flex-col gap-4 p-6 sm:flex-row sm:items-center sm:justify-between sm:p-8">
          <div className="flex items-start gap-4">
            <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-soft text-brand">
              <Plus className="size-5" aria-hidden />
            </span>
            <div>
              <h2 id="add-ons" className="font-semibold tracking-tight">
                Add-on credits
              </h2>
              <p className="mt-1 text-sm text-muted-foreground">
                {ADDON_PACK_CREDITS} extra credits in one purchase. No expiry, available instantly, on any paid plan.
              </p>
            </div>
          </div>
          <ButtonLink to="/settings?tab=plan" variant="outline" className="self-start sm:self-auto">
            Get More Credits
          </ButtonLink>
        </Card>
      </section>

      <section aria-labelledby="faq" className="mx-auto mt-20 max-w-3xl">
        <h2 id="faq" className="text-center text-2xl font-semibold tracking-tight">
          Questions, answered
        </h2>
        <div className="mt-8 divide-y divide-border rounded-2xl border border-border">
          {FAQ.map((item) => (
            <details key={item.q} className="group px-5 sm:px-6 [&_summary::-webkit-details-marker]:hidden">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 py-5 text-left font-medium focus-visible:outline-2 focus-visible:outline-ring">
                {item.q}
                <ChevronDown className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-180" aria-hidden />
              </summary>
              <p className="pb-5 text-sm leading-relaxed text-muted-foreground">{item.a}</p>
            </details>
          ))}
        </div>
      </section>
    </div>
  );
});

function PlanCardView({ card, onCheckout }: { card: PlanCard; onCheckout: (planId: string) => void }) {
  const titleId = `plan-${card.id}`;
  return (
    <Card
      aria-labelledby={titleId}
      role="group"
      className={cn(
        'relative flex w-full flex-col p-6 sm:p-8',
        card.recommended && 'border-brand/60 shadow-lg shadow-brand/10 ring-1 ring-brand/40 dark:shadow-none',
      )}
    >
      <div className="flex items-center justify-between gap-3">
        <h2 id={titleId} className="text-lg font-semibold tracking-tight">
          {card.name}
        </h2>
        {card.isCurrent ? (
          <Badge tone="info">Current plan</Badge>
        ) : card.recommended ? (
          <Badge tone="brand">Recommended</Badge>
        ) : null}
      </div>
      <p className="mt-2 min-h-10 text-sm text-muted-foreground">{card.description}</p>
      <p className="mt-6 flex items-baseline gap-1">
        <span className="text-4xl font-semibold tracking-tight tabular-nums sm:text-5xl">{card.price}</span>
        <span className="text-sm text-muted-foreground">{card.per}</span>
      </p>
      <p className="mt-1 text-sm text-muted-foreground">{card.note}</p>

      <div className="mt-6">
        {card.action.kind === 'current' ? (
          <Button variant="secondary" className="w-full" disabled>
            {card.action.label}
          </Button>
        ) : card.action.kind === 'link' ? (
          <ButtonLink to={card.action.to} variant={card.recommended ? 'brand' : 'outline'} className="w-full">
            {card.action.label}
          </ButtonLink>
        ) : (
          <Button
            variant={card.recommended ? 'brand' : 'outline'}
            className="w-full"
            loading={card.action.busy}
            onClick={() => onCheckout(card.id)}
          >
            {card.action.label}
          </Button>
        )}
      </div>

      <ul className="mt-8 grid gap-3 border-t border-border pt-6 text-sm">
        {card.features.map((feature) => (
          <li key={feature.label} className={cn('flex items-start gap-3', !feature.included && 'text-muted-foreground')}>
            {feature.included ? (
              <Check className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
            ) : (
              <Minus className="mt-0.5 size-4 shrink-0" aria-hidden />
            )}
            <span>
              {feature.label}
              {feature.included ? null : <span className="sr-only"> (not included)</span>}
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

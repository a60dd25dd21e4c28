import { CheckCircle2, LoaderCircle, TriangleAlert } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { Button, ButtonLink } from '../../ui/button';
import { Card } from '../../ui/card';
import { useVm } from '../../use-vm';
import { CheckoutReturnFlow } from './checkout-return.flow';

/** /thank-you (checkout guard, empty layout): the payment went through; the sync runs here too. */
export const ThankYouView = observer(function ThankYouView() {
  const flow = useVm(CheckoutReturnFlow);
  const failed = flow.status === 'failed';
  return (
    <div className="flex min-h-dvh items-center justify-center px-4 py-16">
      <Card className="w-full max-w-md p-8 text-center">
        <span className="mx-auto inline-flex size-12 items-center justify-center rounded-2xl bg-brand-soft text-brand">
          {failed ? <TriangleAlert className="size-6" aria-hidden /> : <CheckCircle2 className="size-6" aria-hidden />}
        </span>
        <h1 className="mt-6 text-2xl font-semibold tracking-tight">Thank you!</h1>
        <p className="mt-2 text-muted-foreground" aria-live="polite">
          {failed
            ? 'Your payment went through, but we could not update your plan yet. Please try refreshing.'
            : flow.status === 'done'
              ? `Your subscription is active${flow.syncedPlanName ? `: ${flow.syncedPlanName}` : ''}.`
              : 'Your payment went through. We are updating your plan and credits.'}
        </p>
        {flow.status === 'syncing' ? <LoaderCircle className="mx-auto mt-6 size-6 animate-spin text-brand" aria-label="Updating subscription" /> : null}
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          {failed ? (
            <Button onClick={() => void flow.syncAfterCheckout()}>Try again</Button>
          ) : (
            <ButtonLink to="/settings?tab=plan">View your plan</ButtonLink>
          )}
          <ButtonLink to="/" variant="outline">
            Start building
          </ButtonLink>
        </div>
      </Card>
    </div>
  );
});

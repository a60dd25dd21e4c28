import { AlertCircle, Rocket } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { useLocation } from 'react-router-dom';
import { Button, ButtonLink } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { Skeleton } from '../../ui/skeleton';
import { useVm } from '../../use-vm';
import { UpgradeDialogStore } from './upgrade-dialog.store';

/** SPEC §2/§4 upgrade dialog, titled by the limit reached. Mounted once (AppShell). */
export const UpgradeDialog = observer(function UpgradeDialog() {
  const store = useVm(UpgradeDialogStore);
  // After paying, the person comes back here (e.g. to the builder).
  const here = useLocation();
  const { state, copy } = store;
  return (
    <Dialog
      open={store.isOpen}
      onClose={store.close}
      locked={store.upgrading}
      icon={<Rocket className="size-5" aria-hidden />}
      title={copy.title}
      description={copy.message}
      footer={
        state.kind === 'plan' ? (
          <>
            <Button variant="ghost" onClick={store.close} disabled={store.upgrading} data-autofocus>
              Maybe later
            </Button>
            <Button variant="brand" onClick={() => void store.upgrade(`${here.pathname}${here.search}`)} loading={store.upgrading}>
              Upgrade
            </Button>
          </>
        ) : state.kind === 'error' ? (
          <Button variant="outline" onClick={() => void store.load()}>
            Try again
          </Button>
        ) : state.kind === 'unavailable' ? (
          <ButtonLink to="/pricing" variant="outline" onClick={store.close}>
            View Plans
          </ButtonLink>
        ) : undefined
      }
    >
      {state.kind === 'loading' ? (
        <div className="grid gap-3 rounded-xl border border-border p-5" aria-busy>
          <Skeleton className="h-5 w-32" />
          <Skeleton className="h-8 w-24" />
          <Skeleton className="h-4 w-full" />
        </div>
      ) : null}
      {state.kind === 'error' ? (
        <p role="alert" className="flex items-center gap-2 text-sm text-destructive">
          <AlertCircle className="size-4" aria-hidden />
          {state.message}
        </p>
      ) : null}
      {state.kind === 'plan' ? (
        <div className="rounded-xl border border-brand/30 bg-brand-soft/40 p-5">
          <p className="text-sm font-medium text-muted-foreground">Next plan</p>
          <p className="mt-1 text-lg font-semibold">{state.plan.name}</p>
          <p className="mt-1 text-3xl font-semibold tracking-tight tabular-nums">
            {state.plan.price}
            <span className="text-base font-medium text-muted-foreground">/{state.plan.per}</span>
          </p>
          {state.plan.description === '' ? null : <p className="mt-2 text-sm text-muted-foreground">{state.plan.description}</p>}
        </div>
      ) : null}
      {state.kind === 'unavailable' ? (
        <p className="text-sm text-muted-foreground">No higher plan is available for your account right now.</p>
      ) : null}
    </Dialog>
  );
});

import { Check, Coins } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { useLocation } from 'react-router-dom';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { useVm } from '../../use-vm';
import { ADD_ON_DIALOG_TITLE, ADD_ON_FEATURES, AddOnCreditsVm } from './add-on-credits.vm';

/** SPEC §2 Add-On Credits dialog. Mounted once (AppShell); opened through AddOnCreditsVm.open(). */
export const AddOnCreditsDialog = observer(function AddOnCreditsDialog() {
  const vm = useVm(AddOnCreditsVm);
  // After paying, the person comes back here (e.g. to the builder).
  const here = useLocation();
  const price = vm.price;
  return (
    <Dialog
      open={vm.isOpen}
      onClose={vm.close}
      locked={vm.buying}
      icon={<Coins className="size-5" aria-hidden />}
      title={ADD_ON_DIALOG_TITLE}
      description="Top up your balance without changing your plan."
      footer={
        <>
          <Button variant="ghost" onClick={vm.close} disabled={vm.buying} data-autofocus>
            Not now
          </Button>
          <Button variant="brand" onClick={() => void vm.buy(`${here.pathname}${here.search}`)} disabled={!vm.canBuy} loading={vm.buying}>
            Buy Now
          </Button>
        </>
      }
    >
      <div className="rounded-xl border border-border bg-muted/40 p-5">
        <div className="flex items-baseline justify-between gap-4">
          <p className="text-3xl font-semibold tracking-tight tabular-nums">
            {vm.credits} <span className="text-base font-medium text-muted-foreground">credits</span>
          </p>
          <div className="text-right">
            {price.kind === 'known' ? <p className="text-2xl font-semibold tabular-nums">{price.text}</p> : null}
            {price.kind === 'unknown' ? <p className="text-sm text-muted-foreground">Price shown at checkout</p> : null}
          </div>
        </div>
        <ul className="mt-4 grid gap-2 text-sm">
          {ADD_ON_FEATURES.map((feature) => (
            <li key={feature} className="flex items-center gap-2">
              <Check className="size-4 text-success" aria-hidden />
              {feature}
            </li>
          ))}
        </ul>
      </div>
    </Dialog>
  );
});

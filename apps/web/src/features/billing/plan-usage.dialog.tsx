/*
 * Billing inside the builder (issue #17 item 7): toolbar button "Plan & usage" opens the dialog
 * "Plan & usage" holding the same panel as Settings (names at the top of plan-usage.panel.tsx).
 */
import { CreditCard } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { cn } from '../../ui/cn';
import { Dialog } from '../../ui/dialog';
import { Tooltip } from '../../ui/tooltip';
import { PlanUsagePanel } from './plan-usage.panel';
import type { PlanUsageVm } from './plan-usage.vm';

export const PlanUsageButton = observer(function PlanUsageButton({ vm }: { vm: PlanUsageVm }) {
  return (
    <Tooltip content="Plan, usage limits and credits">
      <button
        type="button"
        aria-haspopup="dialog"
        aria-expanded={vm.dialogOpen}
        onClick={() => void vm.openDialog()}
        className={cn(
          'inline-flex h-8 shrink-0 items-center gap-1.5 rounded-md px-2 text-xs font-medium text-muted-foreground outline-none',
          'hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring',
          vm.dialogOpen && 'bg-accent text-foreground',
        )}
      >
        <CreditCard className="size-4" aria-hidden />
        <span className="sr-only lg:not-sr-only">Plan &amp; usage</span>
      </button>
    </Tooltip>
  );
});

export const PlanUsageDialog = observer(function PlanUsageDialog({ vm }: { vm: PlanUsageVm }) {
  return (
    <Dialog
      open={vm.dialogOpen}
      onClose={vm.closeDialog}
      title="Plan & usage"
      icon={<CreditCard className="size-5" aria-hidden />}
      description="Your plan, what this billing cycle has used, and your credits."
      className="max-h-[calc(100dvh-2rem)] max-w-3xl overflow-y-auto"
    >
      <PlanUsagePanel vm={vm} />
    </Dialog>
  );
});

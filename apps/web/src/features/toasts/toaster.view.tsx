import { observer } from 'mobx-react-lite';
import { Toast, ToastProvider, ToastViewport } from '../../ui/toast';
import { useVm } from '../../use-vm';
import { TOAST_DEFAULT_DURATION_MS, TOAST_SWIPE_THRESHOLD_PX, ToastStore } from './toast.store';

/**
 * The toast area (SPEC §2, §4, §9): one toast at a time, closes after its duration, a swipe
 * right beyond 50 px dismisses it, F8 focuses the viewport (Radix's default hotkey).
 * Mount once, anywhere under the container context.
 */
export const Toaster = observer(function Toaster() {
  const store = useVm(ToastStore);
  return (
    <ToastProvider
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
      duration={TOAST_DEFAULT_DURATION_MS}
      label="Notification"
    >
      {store.toasts.map((toast) => (
        <Toast
          key={toast.id}
          variant={toast.variant}
          title={toast.title}
          description={toast.description}
          open={toast.open}
          duration={toast.duration}
          action={toast.action === undefined ? undefined : { label: toast.action.label, onAct: () => store.act(toast.id) }}
          onOpenChange={(open) => {
            if (!open) store.dismiss(toast.id);
          }}
        />
      ))}
      <ToastViewport />
    </ToastProvider>
  );
});

export { Toaster } from './toaster.view';
export { ToastStore, TOAST_DEFAULT_DURATION_MS, TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from './toast.store';

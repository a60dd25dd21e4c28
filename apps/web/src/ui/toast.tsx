// Radix Toast, styled: the pieces the Toaster (features/toasts) renders.
import * as ToastPrimitive from '@radix-ui/react-toast';
import { CircleAlert, CircleCheck, Info, TriangleAlert, X } from 'lucide-react';
import type { ComponentProps } from 'react';
import type { ToastVariant } from '../app/ports';
import { cn } from './cn';

export const ToastProvider = ToastPrimitive.Provider;

/** Top of the screen up to 640 px wide (SPEC §2), bottom right above that. */
export function ToastViewport({ className, ...rest }: ComponentProps<typeof ToastPrimitive.Viewport>) {
  return (
    <ToastPrimitive.Viewport
      className={cn(
        'fixed inset-x-0 top-0 z-[100] flex max-h-dvh flex-col gap-2 p-4 outline-none [--toast-enter-y:-0.75rem]',
        'min-[641px]:inset-x-auto min-[641px]:top-auto min-[641px]:right-0 min-[641px]:bottom-0 min-[641px]:w-[400px] min-[641px]:[--toast-enter-y:0.75rem]',
        className,
      )}
      {...rest}
    />
  );
}

const tone: Record<ToastVariant, { icon: typeof Info; accent: string; iconClass: string }> = {
  success: { icon: CircleCheck, accent: 'before:bg-success', iconClass: 'text-success' },
  error: { icon: CircleAlert, accent: 'before:bg-destructive', iconClass: 'text-destructive' },
  warning: { icon: TriangleAlert, accent: 'before:bg-warning', iconClass: 'text-warning' },
  info: { icon: Info, accent: 'before:bg-info', iconClass: 'text-info' },
};

export interface ToastProps extends Omit<ComponentProps<typeof ToastPrimitive.Root>, 'title'> {
  variant: ToastVariant;
  title: string;
  description?: string;
  /** The toast's one button (its label, and what pressing it does). */
  action?: { label: string; onAct: () => void };
}

export function Toast({ variant, title, description, action, className, ...rest }: ToastProps) {
  const { icon: Icon, accent, iconClass } = tone[variant];
  return (
    <ToastPrimitive.Root
      // An error interrupts the screen reader; the other kinds wait politely.
      type={variant === 'error' ? 'foreground' : 'background'}
      data-variant={variant}
      className={cn(
        'group relative flex w-full items-start gap-3 overflow-hidden rounded-xl border border-border bg-popover py-3.5 pr-10 pl-4 text-popover-foreground shadow-lg shadow-black/5',
        'before:absolute before:inset-y-0 before:left-0 before:w-1 dark:shadow-black/40',
        accent,
        'data-[state=open]:animate-toast-in data-[state=closed]:animate-toast-out',
        'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform data-[swipe=end]:animate-swipe-out',
        className,
      )}
      {...rest}
    >
      <Icon className={cn('mt-0.5 size-5 shrink-0', iconClass)} aria-hidden />
      <div className="grid min-w-0 gap-0.5">
        <ToastPrimitive.Title className="text-sm font-semibold leading-snug">{title}</ToastPrimitive.Title>
        {description === undefined ? null : (
          <ToastPrimitive.Description className="text-sm leading-snug text-muted-foreground">{description}</ToastPrimitive.Description>
        )}
        {action === undefined ? null : (
          <ToastPrimitive.Action
            altText={action.label}
            onClick={action.onAct}
            className="mt-2 inline-flex h-8 w-fit items-center rounded-md border border-border px-3 text-sm font-medium transition-colors hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
          >
            {action.label}
          </ToastPrimitive.Action>
        )}
      </div>
      <ToastPrimitive.Close
        aria-label="Close"
        className="absolute top-2.5 right-2.5 inline-flex size-7 items-center justify-center rounded-md text-muted-foreground transition-colors hover:bg-accent hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
      >
        <X className="size-4" aria-hidden />
      </ToastPrimitive.Close>
    </ToastPrimitive.Root>
  );
}

// A modal dialog on the native <dialog> element: focus moves in and is trapped by the browser,
// Escape closes it, the page behind is inert. A child marked data-autofocus gets the first focus. Styled like the rest of the kit.
import { X } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { cn } from './cn';

export interface DialogProps {
  open: boolean;
  /** Called when the user asks to close (Escape, the close button, a click on the backdrop). */
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons, right-aligned (stacked on small screens). */
  footer?: ReactNode;
  /** While true the dialog cannot be closed by the user (e.g. a purchase under way). */
  locked?: boolean;
  icon?: ReactNode;
  className?: string;
}

export function Dialog({ open, onClose, title, description, children, footer, locked = false, icon, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // The safe choice gets the focus when a button asks for it (data-autofocus).
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description === undefined ? undefined : descriptionId}
      onCancel={(event) => {
        // Escape: the view-model decides whether the dialog closes.
        event.preventDefault();
        if (!locked) onClose();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget && !locked) onClose();
      }}
      className={cn(
        'm-auto w-[calc(100%-2rem)] max-w-md rounded-2xl border border-border bg-popover p-0 text-popover-foreground shadow-xl shadow-black/10',
        'backdrop:bg-black/50 backdrop:backdrop-blur-[2px] dark:shadow-black/50',
        className,
      )}
    >
      {open ? (
        <div className="relative grid gap-5 p-6">
          <button
            type="button"
            aria-label="Close"
            disabled={locked}
            onClick={onClose}
            className="absolute top-3 right-3 inline-flex size-8 items-center justify-center rounded-md text-muted-foreground transition-colors hover:bg-accent hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-50"
          >
            <X className="size-4" aria-hidden />
          </button>
          <div className="grid gap-2 pr-8">
            {icon === undefined ? null : (
              <span className="mb-2 inline-flex size-11 items-center justify-center rounded-xl bg-brand-soft text-brand">{icon}</span>
            )}
            <h2 id={titleId} className="text-lg font-semibold leading-tight tracking-tight">
              {title}
            </h2>
            {description === undefined ? null : (
              <div id={descriptionId} className="text-sm text-muted-foreground">
                {description}
              </div>
            )}
          </div>
          {children}
          {footer === undefined ? null : <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{footer}</div>}
        </div>
      ) : null}
    </dialog>
  );
}

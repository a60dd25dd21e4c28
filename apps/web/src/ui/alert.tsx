import { CircleAlert, Info } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from './cn';

/** An inline message in the page flow (load failures, notices). */
export function Alert({
  tone = 'info',
  title,
  children,
  action,
  className,
}: {
  tone?: 'info' | 'destructive';
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  const Icon = tone === 'destructive' ? CircleAlert : Info;
  return (
    <div
      role={tone === 'destructive' ? 'alert' : 'status'}
      className={cn(
        'flex flex-col gap-3 rounded-xl border p-4 sm:flex-row sm:items-start',
        tone === 'destructive' ? 'border-destructive/30 bg-destructive-soft' : 'border-info/25 bg-info-soft',
        className,
      )}
    >
      <Icon className={cn('mt-0.5 size-5 shrink-0', tone === 'destructive' ? 'text-destructive' : 'text-info')} aria-hidden />
      <div className="grid flex-1 gap-1">
        <p className="text-sm font-semibold">{title}</p>
        {children === undefined ? null : <div className="text-sm text-muted-foreground">{children}</div>}
      </div>
      {action}
    </div>
  );
}

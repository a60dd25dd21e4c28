import type { HTMLAttributes } from 'react';
import { cn } from './cn';

export type BadgeTone = 'neutral' | 'brand' | 'success' | 'warning' | 'info' | 'destructive' | 'outline';

const tones: Record<BadgeTone, string> = {
  neutral: 'bg-secondary text-secondary-foreground',
  brand: 'bg-brand-soft text-brand dark:text-brand',
  success: 'bg-success-soft text-success',
  warning: 'bg-warning-soft text-warning',
  info: 'bg-info-soft text-info',
  destructive: 'bg-destructive-soft text-destructive',
  outline: 'border border-border text-muted-foreground',
};

export function Badge({ tone = 'neutral', className, ...rest }: HTMLAttributes<HTMLSpanElement> & { tone?: BadgeTone }) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-medium [&_svg]:size-3',
        tones[tone],
        className,
      )}
      {...rest}
    />
  );
}

import { clampProgress } from '@kiln/domain';
import { cn } from './cn';

export type ProgressTone = 'default' | 'warning' | 'destructive';

const tones: Record<ProgressTone, string> = {
  default: 'bg-primary',
  warning: 'bg-warning',
  destructive: 'bg-destructive',
};

/** A bar for 0–100 (SPEC §5: values are clamped, NaN counts as 0). */
export function Progress({
  value,
  label,
  tone = 'default',
  className,
}: {
  value: number;
  /** The accessible name, e.g. 'Prompts used'. */
  label: string;
  tone?: ProgressTone;
  className?: string;
}) {
  const percent = clampProgress(value);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className={cn('relative h-2 w-full overflow-hidden rounded-full bg-muted', className)}
    >
      <div
        className={cn('h-full rounded-full transition-[width] duration-500 ease-out', tones[tone])}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}

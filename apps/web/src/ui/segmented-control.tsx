import { useId, type ReactNode } from 'react';
import { cn } from './cn';

export interface SegmentOption<T extends string> {
  readonly value: T;
  readonly label: ReactNode;
}

/**
 * A choice of a few options as a row of segments. Native radio inputs underneath: arrow keys,
 * focus and screen-reader announcements come from the browser.
 */
export function SegmentedControl<T extends string>({
  label,
  options,
  value,
  onChange,
  className,
}: {
  /** Accessible name of the group, e.g. 'Billing interval'. */
  label: string;
  options: readonly SegmentOption<T>[];
  value: T;
  onChange: (value: T) => void;
  className?: string;
}) {
  const name = useId();
  return (
    <div role="radiogroup" aria-label={label} className={cn('inline-flex rounded-full border border-border bg-muted p-1', className)}>
      {options.map((option) => (
        <label
          key={option.value}
          className={cn(
            'relative inline-flex h-9 cursor-pointer items-center gap-2 rounded-full px-4 text-sm font-medium text-muted-foreground transition-colors',
            'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-ring hover:text-foreground',
            option.value === value && 'bg-background text-foreground shadow-sm dark:bg-input/40',
          )}
        >
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={option.value === value}
            onChange={() => onChange(option.value)}
            className="sr-only"
          />
          {option.label}
        </label>
      ))}
    </div>
  );
}

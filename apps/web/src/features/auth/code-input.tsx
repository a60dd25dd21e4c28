import { useId, useRef } from 'react';
import { cn } from '../../ui/cn';

/**
 * The one-time-code field: one real input (typing, paste, SMS/mail autofill, screen readers)
 * drawn as six boxes. The view-model decides what the digits are.
 */
export function CodeInput({
  label,
  code,
  digits,
  onChange,
  readOnly,
  invalid,
  describedBy,
  autoFocus,
}: {
  label: string;
  code: string;
  digits: readonly string[];
  onChange: (value: string) => void;
  /** While a code is being checked: keeps focus (a disabled field would drop it). */
  readOnly?: boolean;
  invalid?: boolean;
  describedBy?: string;
  autoFocus?: boolean;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const active = Math.min(code.length, digits.length - 1);
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="group relative" onClick={() => input.current?.focus()}>
        <input
          ref={input}
          id={id}
          value={code}
          onChange={(event) => onChange(event.target.value)}
          onPaste={(event) => {
            event.preventDefault();
            onChange(event.clipboardData.getData('text'));
          }}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={64}
          readOnly={readOnly}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          autoFocus={autoFocus}
          className="absolute inset-0 h-full w-full cursor-text opacity-0"
        />
        <div aria-hidden className="grid grid-cols-6 gap-2">
          {digits.map((digit, index) => (
            <div
              key={index}
              className={cn(
                'flex h-12 items-center justify-center rounded-lg border border-input bg-background text-xl font-semibold tabular-nums shadow-xs transition-[border-color,box-shadow] dark:bg-input/20',
                invalid && 'border-destructive',
                index === active && 'group-focus-within:border-ring group-focus-within:ring-3 group-focus-within:ring-ring/25',
              )}
            >
              {digit}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

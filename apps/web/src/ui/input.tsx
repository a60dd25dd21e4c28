import type { InputHTMLAttributes, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { cn } from './cn';

export const fieldClasses =
  'w-full min-w-0 rounded-lg border border-input bg-background px-3 text-sm text-foreground shadow-xs ' +
  'transition-[border-color,box-shadow] placeholder:text-muted-foreground/80 ' +
  'focus-visible:border-ring focus-visible:outline-none focus-visible:ring-3 focus-visible:ring-ring/25 ' +
  'disabled:cursor-not-allowed disabled:opacity-60 read-only:bg-muted/50 ' +
  'aria-invalid:border-destructive aria-invalid:ring-destructive/20 dark:bg-input/20';

export function Input({ className, ...rest }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={cn(fieldClasses, 'h-10 py-2', className)} {...rest} />;
}

export function Textarea({ className, ...rest }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea className={cn(fieldClasses, 'min-h-24 resize-y py-2.5 leading-relaxed', className)} {...rest} />;
}

/** A native select styled like the inputs (accessible and mobile-friendly by default). */
export function Select({ className, ...rest }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select
      className={cn(
        fieldClasses,
        'h-10 appearance-none bg-[length:1rem] bg-[right_0.75rem_center] bg-no-repeat py-2 pr-9',
        "bg-[url(\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%2371717a' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpath d='m6 9 6 6 6-6'/%3E%3C/svg%3E\")]",
        className,
      )}
      {...rest}
    />
  );
}

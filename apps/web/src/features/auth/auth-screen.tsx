import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Card, CardContent, CardDescription, CardHeader } from '../../ui/card';
import { Input } from '../../ui/input';
import { Label } from '../../ui/label';
import { Logo } from '../../ui/logo';
import { cn } from '../../ui/cn';

/** The frame of every sign-in screen: logo, a card with the title and the form. */
export function AuthScreen({
  title,
  description,
  children,
  footer,
  bare = false,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** Inside a layout that already shows the logo (AuthLayout): the card only. */
  bare?: boolean;
}) {
  return (
    <div className={cn('flex flex-col items-center px-4', bare ? '' : 'min-h-dvh justify-center py-10')}>
      {bare ? null : <Logo className="mb-8" />}
      <Card className="w-full max-w-sm">
        <CardHeader>
          <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
          {description === undefined ? null : <CardDescription>{description}</CardDescription>}
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
      {footer === undefined ? null : <div className="mt-6 text-center text-sm text-muted-foreground">{footer}</div>}
    </div>
  );
}

/** An inline link in the auth screens' footers. */
export function AuthLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="font-medium text-foreground underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-ring">
      {children}
    </Link>
  );
}

/** A field's error under the control (announced, linked by aria-describedby). */
export function FieldError({ id, message }: { id: string; message: string | null }) {
  if (message === null) return null;
  return (
    <p id={id} className="text-sm text-destructive">
      {message}
    </p>
  );
}

/** The form-level error. */
export function FormError({ message }: { message: string | null }) {
  if (message === null) return null;
  return (
    <p role="alert" className="rounded-lg border border-destructive/30 bg-destructive-soft px-3 py-2 text-sm text-destructive">
      {message}
    </p>
  );
}

export function FormNotice({ message }: { message: string | null }) {
  if (message === null) return null;
  return (
    <p role="status" className="rounded-lg border border-info/25 bg-info-soft px-3 py-2 text-sm">
      {message}
    </p>
  );
}

/** A submit-on-Enter form for the auth screens (validation is the view-model's, not the browser's). */
export function AuthForm({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/**
 * A labelled input with its error (and optional hint below, e.g. password rules), wired for
 * screen readers: aria-invalid and aria-describedby point at what is shown.
 */
export function TextField({
  id,
  label,
  labelAside,
  value,
  onChange,
  error = null,
  hint,
  hintId,
  type = 'text',
  autoComplete,
  required = false,
}: {
  id: string;
  label: string;
  labelAside?: ReactNode;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  hint?: ReactNode;
  hintId?: string;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  required?: boolean;
}) {
  const errorId = `${id}-error`;
  const describedBy = [hintId, error === null ? undefined : errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="grid gap-2">
      {labelAside === undefined ? (
        <Label htmlFor={id}>{label}</Label>
      ) : (
        <div className="flex items-center justify-between">
          <Label htmlFor={id}>{label}</Label>
          {labelAside}
        </div>
      )}
      <Input
        id={id}
        type={type}
        autoComplete={autoComplete}
        required={required}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error !== null || undefined}
        aria-describedby={describedBy}
      />
      {hint}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

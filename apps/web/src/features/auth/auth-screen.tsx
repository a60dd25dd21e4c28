import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Card, CardContent, CardDescription, CardHeader } from '../../ui/card';
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

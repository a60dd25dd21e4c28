import type { ReactNode } from 'react';
import { Alert } from './alert';
import { Button } from './button';
import { Card } from './card';
import { Skeleton } from './skeleton';

/** A section that failed to load: its title (or the reason) and a retry. */
export function SectionError({ title, children, onRetry }: { title: string; children?: ReactNode; onRetry: () => void }) {
  return (
    <Alert
      tone="destructive"
      title={title}
      action={
        <Button variant="outline" size="sm" onClick={onRetry}>
          Try again
        </Button>
      }
    >
      {children ?? 'Check your connection and try again.'}
    </Alert>
  );
}

/** Skeleton while loading, `error` on failure, else the section. */
export function SectionLoading({ status, children, error }: { status: 'loading' | 'ready' | 'error'; children: ReactNode; error: ReactNode }) {
  if (status === 'error') return <>{error}</>;
  if (status === 'loading')
    return (
      <Card className="grid gap-4 p-6" aria-busy>
        <Skeleton className="h-5 w-40" />
        <Skeleton className="h-4 w-64" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
      </Card>
    );
  return <>{children}</>;
}

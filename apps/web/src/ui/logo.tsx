import { Link } from 'react-router-dom';
import { cn } from './cn';

/** Kiln's mark: a flame over a hearth, on the ember gradient. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cn('size-7 shrink-0', className)} aria-hidden focusable="false">
      <defs>
        <linearGradient id="kiln-mark" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#fb923c" />
          <stop offset="1" stopColor="#e11d48" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill="url(#kiln-mark)" />
      <path
        d="M16 6c1.5 3.2 5.5 5.6 5.5 10.6A5.5 5.5 0 0 1 16 22a5.5 5.5 0 0 1-5.5-5.4c0-2.7 1.6-4 2.7-5.5.3 1.6 1 2.5 2 2.9C15 11.7 15 8.8 16 6Z"
        fill="white"
      />
      <rect x="9" y="24" width="14" height="2.5" rx="1.25" fill="white" />
    </svg>
  );
}

/** The mark and the wordmark, linking home. */
export function Logo({ className, to = '/' }: { className?: string; to?: string }) {
  return (
    <Link
      to={to}
      className={cn(
        'inline-flex items-center gap-2 rounded-md text-lg font-semibold tracking-tight text-foreground focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-ring',
        className,
      )}
      aria-label="Kiln home"
    >
      <LogoMark />
      <span>Kiln</span>
    </Link>
  );
}

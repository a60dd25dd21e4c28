import { Hammer, Settings } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { ColorModeToggle } from '../features/color-mode/color-mode.view';
import { ButtonLink } from '../ui/button';
import { Logo, LogoMark } from '../ui/logo';
import { Tooltip } from '../ui/tooltip';
import { LayoutFrame, MAIN_CONTENT_ID } from './layout-frame';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/** Each layout renders its child route (<Outlet/>), or `children` when used outside a router tree. */
interface LayoutProps {
  children?: ReactNode;
}

/** Header, page and footer: legal pages, contact, pricing. */
export function DefaultLayout({ children }: LayoutProps) {
  return (
    <LayoutFrame>
      <div className="flex min-h-dvh flex-col">
        <SiteHeader />
        <main id={MAIN_CONTENT_ID} className="flex-1">
          {children ?? <Outlet />}
        </main>
        <SiteFooter />
      </div>
    </LayoutFrame>
  );
}

/** The landing page's layout: the header over a warm ember glow. */
export function GradientLayout({ children }: LayoutProps) {
  return (
    <LayoutFrame>
      <div className="relative isolate flex min-h-dvh flex-col overflow-x-clip">
        <div aria-hidden className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-[52rem] overflow-hidden">
          <div className="absolute -top-40 left-1/2 h-[42rem] w-[64rem] -translate-x-1/2 rounded-full bg-[radial-gradient(closest-side,oklch(0.83_0.15_60/0.55),transparent)] blur-2xl dark:bg-[radial-gradient(closest-side,oklch(0.5_0.16_45/0.45),transparent)]" />
          <div className="absolute top-24 -left-48 h-[30rem] w-[36rem] rounded-full bg-[radial-gradient(closest-side,oklch(0.8_0.14_15/0.35),transparent)] blur-2xl dark:bg-[radial-gradient(closest-side,oklch(0.45_0.15_10/0.35),transparent)]" />
          <div className="absolute top-40 -right-40 h-[30rem] w-[36rem] rounded-full bg-[radial-gradient(closest-side,oklch(0.8_0.1_300/0.3),transparent)] blur-2xl dark:bg-[radial-gradient(closest-side,oklch(0.42_0.14_300/0.35),transparent)]" />
          <div className="absolute inset-0 bg-[linear-gradient(to_right,var(--color-border)_1px,transparent_1px),linear-gradient(to_bottom,var(--color-border)_1px,transparent_1px)] [mask-image:radial-gradient(ellipse_60%_50%_at_50%_0%,black,transparent)] bg-[size:48px_48px] opacity-40" />
        </div>
        <SiteHeader transparent />
        <main id={MAIN_CONTENT_ID} className="flex-1">
          {children ?? <Outlet />}
        </main>
        <SiteFooter />
      </div>
    </LayoutFrame>
  );
}

/** Visitors without an account (the beta page): a slim header, no product navigation. */
export function GuestLayout({ children }: LayoutProps) {
  return (
    <LayoutFrame>
      <div className="flex min-h-dvh flex-col bg-[radial-gradient(ellipse_at_top,var(--color-brand-soft),transparent_60%)]">
        <header className="mx-auto flex h-16 w-full max-w-5xl items-center justify-between px-4 sm:px-6">
          <Logo />
          <div className="flex items-center gap-2">
            <ColorModeToggle />
            <ButtonLink to="/login" variant="ghost" size="sm">
              Log in
            </ButtonLink>
          </div>
        </header>
        <main id={MAIN_CONTENT_ID} className="flex-1">
          {children ?? <Outlet />}
        </main>
        <footer className="mx-auto w-full max-w-5xl px-4 py-8 text-sm text-muted-foreground sm:px-6">
          <nav aria-label="Legal" className="flex flex-wrap gap-x-5 gap-y-2">
            <Link className="hover:text-foreground" to="/legal/terms-of-service">
              Terms
            </Link>
            <Link className="hover:text-foreground" to="/legal/privacy-policy">
              Privacy
            </Link>
            <Link className="hover:text-foreground" to="/contact-us">
              Contact
            </Link>
          </nav>
        </footer>
      </div>
    </LayoutFrame>
  );
}

/** Account recovery (reset password): a centred column with the logo above. */
export function AuthLayout({ children }: LayoutProps) {
  return (
    <LayoutFrame>
      <div className="flex min-h-dvh flex-col items-center bg-muted/40 px-4 py-10 sm:justify-center dark:bg-background">
        <div className="mb-8 flex w-full max-w-sm items-center justify-between">
          <Logo />
          <ColorModeToggle />
        </div>
        <main id={MAIN_CONTENT_ID} className="w-full max-w-sm">
          {children ?? <Outlet />}
        </main>
      </div>
    </LayoutFrame>
  );
}

/** Nothing but the page: sign-in flow screens, creation, thank-you. */
export function EmptyLayout({ children }: LayoutProps) {
  return (
    <LayoutFrame>
      <main id={MAIN_CONTENT_ID} className="min-h-dvh">
        {children ?? <Outlet />}
      </main>
    </LayoutFrame>
  );
}

/** The builder's full-height shell: a slim top bar over a workspace the builder issue fills. */
export function BuilderLayout({ children }: LayoutProps) {
  return (
    <LayoutFrame>
      <div className="flex h-dvh flex-col overflow-hidden bg-muted/30 dark:bg-background">
        <header className="flex h-12 shrink-0 items-center gap-3 border-b border-border bg-background px-3">
          <Link
            to="/"
            aria-label="Kiln home"
            className="rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            <LogoMark className="size-6" />
          </Link>
          <div className="flex min-w-0 items-center gap-2 text-sm">
            <Hammer className="size-4 text-muted-foreground" aria-hidden />
            <span className="truncate font-medium">Builder</span>
          </div>
          <div className="ml-auto flex items-center gap-1">
            <ColorModeToggle />
            <Tooltip content="Settings">
              <Link
                to="/settings"
                aria-label="Settings"
                className="inline-flex size-8 items-center justify-center rounded-lg text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
              >
                <Settings className="size-4" aria-hidden />
              </Link>
            </Tooltip>
          </div>
        </header>
        <main id={MAIN_CONTENT_ID} className="min-h-0 flex-1">
          {children ?? <Outlet />}
        </main>
      </div>
    </LayoutFrame>
  );
}

/** A published project's preview: the page edge to edge, with a small Kiln badge. */
export function PreviewLayout({ children }: LayoutProps) {
  return (
    <LayoutFrame>
      <main id={MAIN_CONTENT_ID} className="min-h-dvh">
        {children ?? <Outlet />}
      </main>
      <Link
        to="/"
        className="fixed right-4 bottom-4 z-50 inline-flex items-center gap-2 rounded-full border border-border bg-background/90 py-1.5 pr-3.5 pl-2 text-xs font-medium shadow-lg backdrop-blur hover:bg-background focus-visible:outline-2 focus-visible:outline-ring"
      >
        <LogoMark className="size-5" />
        Built with Kiln
      </Link>
    </LayoutFrame>
  );
}

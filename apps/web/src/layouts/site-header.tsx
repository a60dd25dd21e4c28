import { Menu, X } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { useEffect, useId, useState } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { type SessionService, TYPES } from '../app/ports';
import { SignOutVm } from '../features/auth/sign-out.vm';
import { ColorModeToggle } from '../features/color-mode/color-mode.view';
import { Button, ButtonLink } from '../ui/button';
import { cn } from '../ui/cn';
import { Logo } from '../ui/logo';
import { useVm } from '../use-vm';

const NAV = [
  { to: '/pricing', label: 'Pricing' },
  { to: '/beta', label: 'Beta' },
  { to: '/contact-us', label: 'Contact' },
] as const;

const navLinkClasses = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-3 py-2 text-sm font-medium transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring',
    isActive ? 'text-foreground' : 'text-muted-foreground',
  );

/** The marketing header: logo, a few links, color mode, and the session's way in or onward. */
export const SiteHeader = observer(function SiteHeader({ transparent = false }: { transparent?: boolean }) {
  const session = useVm<SessionService>(TYPES.Session);
  const signOut = useVm(SignOutVm);
  const signedIn = session.status === 'signed-in';
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const { pathname } = useLocation();
  useEffect(() => setMenuOpen(false), [pathname]);

  return (
    <header
      className={cn(
        'sticky top-0 z-40 w-full border-b backdrop-blur-md',
        transparent ? 'border-transparent bg-background/40' : 'border-border/70 bg-background/80',
      )}
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4 sm:px-6">
        <Logo className="mr-4" />
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {NAV.map((item) => (
            <NavLink key={item.to} to={item.to} className={navLinkClasses}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-1.5 sm:gap-2">
          <ColorModeToggle />
          {signedIn ? (
            <>
              <ButtonLink to="/settings" variant="outline" size="sm">
                Settings
              </ButtonLink>
              <Button variant="ghost" size="sm" disabled={signOut.signingOut} onClick={() => void signOut.signOut()}>
                Sign out
              </Button>
            </>
          ) : (
            <>
              <ButtonLink to="/login" variant="ghost" size="sm" className="hidden sm:inline-flex">
                Log in
              </ButtonLink>
              <ButtonLink to="/get-started" size="sm">
                Get started
              </ButtonLink>
            </>
          )}
          <Button
            variant="ghost"
            size="icon-sm"
            className="md:hidden"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <X aria-hidden /> : <Menu aria-hidden />}
          </Button>
        </div>
      </div>
      <nav
        id={menuId}
        aria-label="Mobile"
        hidden={!menuOpen}
        className="border-t border-border bg-background px-4 pt-2 pb-4 md:hidden"
      >
        <ul className="grid gap-1">
          {NAV.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} className={({ isActive }) => cn(navLinkClasses({ isActive }), 'block py-2.5 text-base')}>
                {item.label}
              </NavLink>
            </li>
          ))}
          {signedIn ? null : (
            <li>
              <NavLink to="/login" className={({ isActive }) => cn(navLinkClasses({ isActive }), 'block py-2.5 text-base')}>
                Log in
              </NavLink>
            </li>
          )}
        </ul>
      </nav>
    </header>
  );
});

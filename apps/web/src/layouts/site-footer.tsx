import { Link } from 'react-router-dom';
import { ColorModePicker } from '../features/color-mode/color-mode.view';
import { LogoMark } from '../ui/logo';

const COLUMNS = [
  {
    title: 'Product',
    links: [
      { to: '/pricing', label: 'Pricing' },
      { to: '/beta', label: 'Beta' },
      { to: '/get-started', label: 'Get started' },
    ],
  },
  {
    title: 'Company',
    links: [{ to: '/contact-us', label: 'Contact us' }],
  },
  {
    title: 'Legal',
    links: [
      { to: '/legal/terms-of-service', label: 'Terms of Service' },
      { to: '/legal/privacy-policy', label: 'Privacy Policy' },
      { to: '/legal/cookies-policy', label: 'Cookies Policy' },
      { to: '/legal/cancellation-refund-policy', label: 'Cancellation & Refunds' },
    ],
  },
] as const;

export function SiteFooter() {
  return (
    <footer className="border-t border-border/70">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-[1.5fr_repeat(3,1fr)]">
        <div className="grid content-start gap-3">
          <div className="flex items-center gap-2 font-semibold tracking-tight">
            <LogoMark className="size-6" />
            Kiln
          </div>
          <p className="max-w-xs text-sm text-muted-foreground">Describe an app. Watch it take shape.</p>
        </div>
        {COLUMNS.map((column) => (
          <nav key={column.title} aria-label={column.title} className="grid content-start gap-3">
            <h2 className="text-sm font-medium">{column.title}</h2>
            <ul className="grid gap-2">
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link
                    to={link.to}
                    className="rounded-sm text-sm text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="mx-auto flex max-w-6xl flex-col-reverse items-start gap-4 border-t border-border/70 px-4 py-6 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p>© {new Date().getFullYear()} Kiln. All rights reserved.</p>
        <ColorModePicker />
      </div>
    </footer>
  );
}

import type { ReactNode } from 'react';
import { PageViewTracker } from '../features/analytics/page-view-tracker.view';
import { ColorModeSync } from '../features/color-mode/color-mode.view';
import { TooltipProvider } from '../ui/tooltip';

export const MAIN_CONTENT_ID = 'main-content';

/**
 * What every layout shares: tooltips' shared delays, the color mode painted on <html>, a page
 * view per navigation, and a skip link to the main content for keyboard users.
 */
export function LayoutFrame({ children }: { children: ReactNode }) {
  return (
    <TooltipProvider>
      <ColorModeSync />
      <PageViewTracker />
      <a
        href={`#${MAIN_CONTENT_ID}`}
        className="sr-only z-[200] rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      {children}
    </TooltipProvider>
  );
}

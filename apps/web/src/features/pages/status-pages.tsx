import { House } from 'lucide-react';
import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router-dom';
import { ButtonLink } from '../../ui/button';
import { LogoMark } from '../../ui/logo';

function StatusScreen({ code, title, detail }: { code: string; title: string; detail: string }) {
  return (
    <div className="flex min-h-[70dvh] flex-col items-center justify-center px-4 py-16 text-center">
      <LogoMark className="size-10" />
      <p className="mt-8 text-sm font-semibold text-brand tabular-nums">{code}</p>
      <h1 className="mt-2 max-w-2xl text-3xl font-semibold tracking-tight break-words sm:text-4xl">{title}</h1>
      <p className="mt-3 max-w-md text-muted-foreground">{detail}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <ButtonLink to="/">
          <House aria-hidden />
          Go home
        </ButtonLink>
        <ButtonLink to="/pricing" variant="outline">
          See pricing
        </ButtonLink>
      </div>
    </div>
  );
}

/** SPEC §2, §8: an unmatched path is a 404 with 'Page not found: {path}'. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return <StatusScreen code="404" title={`Page not found: ${pathname}`} detail="The page you are looking for does not exist or has moved." />;
}

/**
 * SPEC §2: the error page shows 'Page Not Found' for a 404, 'Internal Server Error' otherwise;
 * SPEC §8: a page that failed validation says which ('Page Not Found: {path}', page-params.ts).
 */
export function errorPageTitle(error: unknown): string {
  if (!isRouteErrorResponse(error) || error.status !== 404) return 'Internal Server Error';
  return typeof error.data === 'string' && error.data.startsWith('Page Not Found: ') ? error.data : 'Page Not Found';
}

/** The router's errorElement. */
export function ErrorPage() {
  const error = useRouteError();
  const title = errorPageTitle(error);
  const notFound = title.startsWith('Page Not Found');
  return (
    <main className="min-h-dvh">
      <StatusScreen
        code={notFound ? '404' : '500'}
        title={title}
        detail={notFound ? 'The page you are looking for does not exist or has moved.' : 'Something went wrong on our side. Please try again in a moment.'}
      />
    </main>
  );
}


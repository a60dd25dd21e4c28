import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router-dom';
import { Spinner } from '../ui/spinner';
import { useVm } from '../use-vm';
import type { RouteGuardName } from './access';
import { RouteGuardVm } from './route-guard.vm';

/** What a route declares in `handle` (routes.tsx). */
export interface RouteHandle {
  readonly guard?: RouteGuardName;
}

/** The deepest guard declared by the matched routes. */
function useDeclaredGuard(): RouteGuardName | null {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const guard = (matches[i]?.handle as RouteHandle | undefined)?.guard;
    if (guard) return guard;
  }
  return null;
}

/** Wraps every page: renders it, waits for the session, or redirects (routes/access.ts). */
export const RouteGuard = observer(function RouteGuard() {
  const vm = useVm(RouteGuardVm);
  const { pathname, search, hash } = useLocation();
  const guard = useDeclaredGuard();
  const decision = vm.decide({ path: pathname, search, hash, guard });
  const redirectTo = decision.kind === 'redirect' ? decision.to : null;

  useEffect(() => {
    if (decision.kind === 'redirect') vm.follow(decision);
    // Keyed by the destination and the location, not by each render's new decision object.
  }, [vm, redirectTo, pathname, search]);

  if (decision.kind === 'render') return <Outlet />;
  return (
    <div className="flex min-h-dvh items-center justify-center">
      <Spinner className="size-6 text-muted-foreground" label="Loading" />
    </div>
  );
});

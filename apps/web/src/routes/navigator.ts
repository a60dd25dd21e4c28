import type { Navigator } from '../app/ports';

interface RouterLike {
  navigate(to: string, options?: { replace?: boolean }): unknown;
}

/** Navigator for view-models: the data router's navigate, attached once in main.tsx. */
export class RouterNavigator implements Navigator {
  private router: RouterLike | null = null;

  attach(router: RouterLike): void {
    this.router = router;
  }

  navigate(to: string, options?: { readonly replace?: boolean }): void {
    if (this.router === null) throw new Error('RouterNavigator used before main.tsx attached the router');
    void this.router.navigate(to, { replace: options?.replace ?? false });
  }
}

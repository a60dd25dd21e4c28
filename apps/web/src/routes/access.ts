import type { SessionStatus, SessionUser } from '../app/ports';

/** Route-level guards of SPEC §2/§6 ('auth' on /settings, 'auth-stripe-checkout' on /thank-you). */
export type RouteGuardName = 'auth' | 'checkout';

export const GET_STARTED_PATH = '/get-started';
export const PRICING_PATH = '/pricing';
export const LOGIN_PATH = '/login';

/** SPEC §6: paths anyone may open. */
const PUBLIC_EXACT = ['/', '/get-started', '/pricing', '/verify', '/contact-us', '/pitch-deck-gbm-jh-sss'];
const PUBLIC_PREFIXES = ['/legal/', '/project-preview/'];
/**
 * The screens that sign people in must be reachable without a session too (SPEC §2 exempts
 * "the login path and callback path"; docs/decisions.md lists them).
 */
const AUTH_FLOW_PATHS = ['/login', '/signup', '/reset-password', '/confirm', '/auth/callback'];
/** Screens for visitors who are not signed in yet: a signed-in user is sent on (SPEC §4 Entry). */
const ENTRY_PATHS = ['/get-started', '/login', '/signup'];

const normalise = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, '') : path) || '/';

export function isPublicPath(path: string): boolean {
  const p = normalise(path);
  if (p === '/legal' || p === '/project-preview') return true;
  return PUBLIC_EXACT.includes(p) || AUTH_FLOW_PATHS.includes(p) || PUBLIC_PREFIXES.some((prefix) => p.startsWith(prefix));
}

export interface AccessInput {
  readonly path: string;
  /** The query string with its '?', or ''. */
  readonly search: string;
  readonly hash?: string;
  readonly status: SessionStatus;
  readonly user: SessionUser | null;
  /** The guard declared on the matched route, if any. */
  readonly guard: RouteGuardName | null;
  /** A sign-in is being finished on this page (profile ensured, then the page navigates itself). */
  readonly signInInProgress: boolean;
}

export type AccessDecision =
  | { readonly kind: 'render' }
  /** The session is still being read: show a placeholder. */
  | { readonly kind: 'wait' }
  /** Replace the history entry with `to`; `rememberReturnTo` is the path to restore after sign-in. */
  | { readonly kind: 'redirect'; readonly to: string; readonly rememberReturnTo: string | null };

const render: AccessDecision = { kind: 'render' };
const redirect = (to: string, rememberReturnTo: string | null = null): AccessDecision => ({ kind: 'redirect', to, rememberReturnTo });

/** SPEC §4 Entry: where a signed-in user opening an entry screen goes. */
export function entryDestination(user: SessionUser): string {
  return user.isSignup ? `/verify?email=${encodeURIComponent(user.email)}` : '/';
}

/** The checkout-auth guard's query: a payment session id or a success flag. */
export function hasCheckoutReturn(search: string): boolean {
  const query = new URLSearchParams(search);
  return query.has('session_id') || query.has('success');
}

/** SPEC §2, §4, §6: may this path render now, wait for the session, or go elsewhere? Pure. */
export function decideAccess(input: AccessInput): AccessDecision {
  const path = normalise(input.path);
  if (path === '/api' || path.startsWith('/api/')) return render;

  if (ENTRY_PATHS.includes(path)) {
    if (input.signInInProgress) return render;
    if (input.status === 'loading') return { kind: 'wait' };
    // Password accepted, code owed: /login asks for it.
    if (input.status === 'second-factor') return path === LOGIN_PATH ? render : redirect(LOGIN_PATH);
    if (input.status === 'signed-in' && input.user) return redirect(entryDestination(input.user));
    return render;
  }

  if (input.guard === 'checkout' && !hasCheckoutReturn(input.search)) return redirect(PRICING_PATH);

  if (isPublicPath(path) && input.guard === null) return render;

  if (input.status === 'loading') return { kind: 'wait' };
  const requested = `${path}${input.search}${input.hash ?? ''}`;
  if (input.status === 'second-factor') return redirect(LOGIN_PATH, requested);
  if (input.status !== 'signed-in') return redirect(GET_STARTED_PATH, requested);
  return render;
}

import { AuthClient, type GoTrueClient } from '@supabase/auth-js';

/** localStorage key of the auth-js session (also the name of its cross-tab BroadcastChannel). */
export const AUTH_STORAGE_KEY = 'kiln.auth';
/** The only path where auth-js may read a session from the URL (implicit-grant redirects). */
export const AUTH_CALLBACK_PATH = '/auth/callback';

/**
 * auth-js pointed at Kiln's GoTrue-compatible endpoints on the page's own origin: the session
 * persists in localStorage, refreshes automatically (only while the tab is visible), and
 * changes reach the other tabs through a BroadcastChannel.
 */
export function createAuthClient(origin: string, storage: Storage | undefined): GoTrueClient {
  return new AuthClient({
    url: `${origin}/auth/v1`,
    storageKey: AUTH_STORAGE_KEY,
    storage,
    persistSession: true,
    autoRefreshToken: true,
    flowType: 'implicit',
    detectSessionInUrl: (url) => url.pathname === AUTH_CALLBACK_PATH,
  });
}

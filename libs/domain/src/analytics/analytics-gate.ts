/** Host names that mean "a developer's own machine". */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '0.0.0.0']);

export function isLocalHost(hostname: string): boolean {
  const host = hostname.trim().toLowerCase();
  return LOCAL_HOSTS.has(host) || host.endsWith('.localhost');
}

/** SPEC §5: analytics are skipped on localhost unless explicitly enabled there. */
export function shouldSendAnalytics(hostname: string, options: { readonly enabledOnLocalhost: boolean }): boolean {
  return options.enabledOnLocalhost || !isLocalHost(hostname);
}

/** SPEC §9 timers: the analytics script is loaded this long after the app starts sending. */
export const ANALYTICS_INIT_DELAY_MS = 1000;

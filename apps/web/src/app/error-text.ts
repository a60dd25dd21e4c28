/** The words of a failure for the screen: an Error's message, or `fallback` when there is none. */
export function errorText(error: unknown, fallback = 'Request failed'): string {
  return error instanceof Error && error.message !== '' ? error.message : fallback;
}

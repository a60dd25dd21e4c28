/**
 * Enough of an AbortSignal for the domain to pass one through (the domain has no host globals).
 * A real AbortSignal fits.
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

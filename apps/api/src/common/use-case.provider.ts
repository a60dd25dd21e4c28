import type { FactoryProvider, InjectionToken } from '@nestjs/common';

/**
 * The one way a domain use case (or any plain class of the domain) is provided: under its own
 * class, built with `new` from the tokens of its constructor's arguments, in order.
 * `useCase(SaveProjectVersion, [OwnedProjects, SANDBOX_HOST, PROBLEM_LOG])`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tokens carry no types; the constructor checks nothing more at runtime either
export function useCase<T>(type: new (...args: any[]) => T, inject: readonly InjectionToken[]): FactoryProvider<T> {
  return { provide: type, useFactory: (...deps: unknown[]) => new type(...deps), inject: [...inject] };
}

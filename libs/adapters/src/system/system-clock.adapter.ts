import type { Clock } from '@kiln/domain';

/** The real clock. The only place the server reads the time for the domain. */
export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}

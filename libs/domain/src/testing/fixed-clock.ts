import type { Clock } from '../shared/clock.port.js';

/** A clock tests move by hand. */
export class FixedClock implements Clock {
  private current: Date;

  constructor(start: Date | string = '2026-01-15T10:00:00.000Z') {
    this.current = new Date(typeof start === 'string' ? Date.parse(start) : start.getTime());
  }

  now(): Date {
    return new Date(this.current.getTime());
  }

  set(to: Date | string): void {
    this.current = new Date(typeof to === 'string' ? Date.parse(to) : to.getTime());
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export const DAY_MS = 24 * 60 * 60 * 1000;

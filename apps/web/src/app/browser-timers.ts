import type { Timers } from './ports';

/** Timers on the browser's clock and setInterval/setTimeout. */
export const browserTimers: Timers = {
  now: () => Date.now(),
  every(ms, tick) {
    const handle = setInterval(tick, ms);
    return () => clearInterval(handle);
  },
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

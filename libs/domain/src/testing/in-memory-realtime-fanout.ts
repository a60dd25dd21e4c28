import { decodeFanoutMessage, encodeFanoutMessage } from '../realtime/fanout-message.js';
import type { FanoutMessage, RealtimeFanout } from '../realtime/realtime-fanout.port.js';
import type { RealtimeError } from '../realtime/realtime-rules.js';
import { type Result, ok } from '../shared/result.js';

/**
 * RealtimeFanout in one process: every instance made with the same hub shares its subscribers
 * (two "API instances" in a test). Messages are delivered after the publish resolves, in order.
 * `down` makes every call reject as an unreachable carrier would.
 */
export class InMemoryRealtimeFanout implements RealtimeFanout {
  down = false;
  private readonly own = new Set<(m: FanoutMessage) => void>();

  constructor(private readonly hub: Set<(m: FanoutMessage) => void> = new Set()) {}

  /** Another instance on the same carrier. */
  sibling(): InMemoryRealtimeFanout {
    return new InMemoryRealtimeFanout(this.hub);
  }

  async publish(message: FanoutMessage): Promise<Result<void, RealtimeError>> {
    if (this.down) throw new Error('fanout unreachable');
    const text = encodeFanoutMessage(message);
    if (!text.ok) return text;
    const listeners = [...this.hub];
    void Promise.resolve().then(() => {
      for (const listener of listeners) {
        const copy = decodeFanoutMessage(text.value);
        if (copy !== null && this.hub.has(listener)) listener(copy);
      }
    });
    return ok(undefined);
  }

  async subscribe(listener: (message: FanoutMessage) => void): Promise<() => Promise<void>> {
    if (this.down) throw new Error('fanout unreachable');
    const wrapped = (m: FanoutMessage) => listener(m);
    this.hub.add(wrapped);
    this.own.add(wrapped);
    return async () => {
      this.hub.delete(wrapped);
      this.own.delete(wrapped);
    };
  }

  async close(): Promise<void> {
    for (const l of this.own) this.hub.delete(l);
    this.own.clear();
  }
}

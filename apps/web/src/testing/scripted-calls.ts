/**
 * The part every fake API client shares: each call is recorded, a test can make the next calls of
 * a method fail (`fail`) or wait until it says so (`hold` / `release`, to see a view-model while
 * a request is under way).
 */
export class ScriptedCalls<Method extends string> {
  readonly calls: string[] = [];
  private readonly failures = new Map<Method, unknown[]>();
  private readonly holds = new Map<Method, { resolve: () => void; promise: Promise<void> }>();

  /** The next call of `method` throws `error` (several calls queue several errors). */
  fail(method: Method, error: unknown): void {
    this.failures.set(method, [...(this.failures.get(method) ?? []), error]);
  }

  /** Calls of `method` wait until `release(method)`. */
  hold(method: Method): void {
    let resolve = () => undefined as void;
    const promise = new Promise<void>((r) => (resolve = r));
    this.holds.set(method, { resolve, promise });
  }

  release(method: Method): void {
    const held = this.holds.get(method);
    this.holds.delete(method);
    held?.resolve();
  }

  /** Records `call`, waits while `method` is held, then throws its next queued failure if any. */
  protected async step(method: Method, call: string): Promise<void> {
    this.calls.push(call);
    const held = this.holds.get(method);
    if (held !== undefined) await held.promise;
    const queue = this.failures.get(method);
    if (queue !== undefined && queue.length > 0) throw queue.shift();
  }
}

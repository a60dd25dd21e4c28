import { injectable } from 'inversify';
import { makeAutoObservable } from 'mobx';

/**
 * SPEC §4: buying credits marks the builder as an intentional exit before redirecting, so the
 * builder's "leave this page?" guard lets the browser go to the payment page without asking.
 */
@injectable()
export class IntentionalExit {
  marked = false;

  constructor() {
    makeAutoObservable(this, {}, { autoBind: true });
  }

  mark(): void {
    this.marked = true;
  }

  clear(): void {
    this.marked = false;
  }
}

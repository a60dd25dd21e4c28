import type { Currency, PaymentEvent, PlanId, ProMultiplier, SubscriptionSnapshot } from '@kiln/domain';

/** A checkout started through the local gateway, shown by the API's test checkout page. */
export interface LocalCheckoutSession {
  readonly id: string;
  readonly kind: 'subscription' | 'add_on';
  readonly userId: string;
  readonly email: string;
  readonly planId: PlanId | null;
  readonly currency: Currency;
  /** The plan multiplier bought (1x, 2x, 3x); absent on add-on sessions and on sessions stored before it existed (1x). */
  readonly multiplier?: ProMultiplier;
  readonly customerId: string;
  /** Set once paid: the events the payment produced (replayed as is if completed again). */
  readonly completed: readonly PaymentEvent[] | null;
  readonly canceled: boolean;
}

/** A local subscription and the Kiln user it belongs to. */
export type LocalSubscription = SubscriptionSnapshot & { readonly userId: string };

/**
 * Where the local test checkout keeps its sessions and subscriptions — the state a real provider
 * keeps on its side — so that `npm start` can be restarted without losing a test subscription
 * (PostgreSQL: PgLocalCheckoutStore; tests: InMemoryLocalCheckoutStore). Every change that two
 * requests could race on is one atomic call.
 */
export interface LocalCheckoutStore {
  /** The session opened for this idempotency key, or `session` stored under it (the first one wins). */
  openSession(idempotencyKey: string, session: LocalCheckoutSession): Promise<LocalCheckoutSession>;
  session(id: string): Promise<LocalCheckoutSession | null>;
  /**
   * Pays a session that is neither paid nor canceled: stores its events and, for a subscription
   * checkout, the new subscription, together. Answers the session as stored afterwards (with the
   * events of whichever payment won), or null when there is no such session.
   */
  completeSession(id: string, events: readonly PaymentEvent[], subscription: LocalSubscription | null): Promise<LocalCheckoutSession | null>;
  /** Abandons a session that is not paid (a paid one stays paid); null when there is none. */
  cancelSession(id: string): Promise<LocalCheckoutSession | null>;
  subscription(id: string): Promise<LocalSubscription | null>;
  saveSubscription(subscription: LocalSubscription): Promise<void>;
  subscriptionsOfUser(userId: string): Promise<LocalSubscription[]>;
  subscriptionsOfCustomer(customerId: string): Promise<LocalSubscription[]>;
  /** The customer's paid sessions, oldest first: the local checkout's invoices. */
  paidSessionsOfCustomer(customerId: string): Promise<LocalCheckoutSession[]>;
}

/** The store in this process's memory (tests; the API uses PostgreSQL). */
export class InMemoryLocalCheckoutStore implements LocalCheckoutStore {
  private readonly sessions = new Map<string, LocalCheckoutSession>();
  private readonly keys = new Map<string, string>();
  private readonly subscriptions = new Map<string, LocalSubscription>();

  async openSession(idempotencyKey: string, session: LocalCheckoutSession): Promise<LocalCheckoutSession> {
    const known = this.keys.get(idempotencyKey);
    if (known !== undefined) return this.sessions.get(known) as LocalCheckoutSession;
    this.keys.set(idempotencyKey, session.id);
    this.sessions.set(session.id, session);
    return session;
  }

  async session(id: string): Promise<LocalCheckoutSession | null> {
    return this.sessions.get(id) ?? null;
  }

  async completeSession(id: string, events: readonly PaymentEvent[], subscription: LocalSubscription | null): Promise<LocalCheckoutSession | null> {
    const session = this.sessions.get(id);
    if (session === undefined) return null;
    if (session.completed !== null || session.canceled) return session;
    const paid = { ...session, completed: events };
    this.sessions.set(id, paid);
    if (subscription !== null) this.subscriptions.set(subscription.id, subscription);
    return paid;
  }

  async cancelSession(id: string): Promise<LocalCheckoutSession | null> {
    const session = this.sessions.get(id);
    if (session === undefined) return null;
    if (session.completed !== null || session.canceled) return session;
    const canceled = { ...session, canceled: true };
    this.sessions.set(id, canceled);
    return canceled;
  }

  async subscription(id: string): Promise<LocalSubscription | null> {
    return this.subscriptions.get(id) ?? null;
  }

  async saveSubscription(subscription: LocalSubscription): Promise<void> {
    this.subscriptions.set(subscription.id, subscription);
  }

  async subscriptionsOfUser(userId: string): Promise<LocalSubscription[]> {
    return [...this.subscriptions.values()].filter((s) => s.userId === userId);
  }

  async subscriptionsOfCustomer(customerId: string): Promise<LocalSubscription[]> {
    return [...this.subscriptions.values()].filter((s) => s.customerId === customerId);
  }

  async paidSessionsOfCustomer(customerId: string): Promise<LocalCheckoutSession[]> {
    return [...this.sessions.values()].filter((s) => s.customerId === customerId && s.completed !== null);
  }
}

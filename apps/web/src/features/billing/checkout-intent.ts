import { inject, injectable } from 'inversify';
import { type KeyValueStorage, STORAGE_KEYS, TYPES } from '../../app/ports';

/** What the person left for the payment page to buy. */
export type CheckoutKind = 'plan' | 'add_on';

export interface CheckoutIntentRecord {
  readonly kind: CheckoutKind;
  /** Where to come back to once the purchase is synced: a safe same-origin path, or null. */
  readonly returnPath: string | null;
}

const MAX_RETURN_PATH = 2048;

/**
 * A return path is followed only when it is a path of this site: it starts with one '/' (not '//'
 * nor '/\', which browsers read as another host), has no backslash, whitespace or control
 * characters, and is of reasonable length. Anything else (absolute URLs, 'javascript:', '') → null.
 */
export function safeReturnPath(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_RETURN_PATH) return null;
  if (!raw.startsWith('/') || raw.startsWith('//')) return null;
  if (/[\\\s\u0000-\u001f\u007f]/.test(raw)) return null;
  return raw;
}

/**
 * Carries what is being bought and where the person came from through the payment provider's
 * pages: remembered just before the browser leaves for checkout, taken (once) when it comes back.
 * The return path is validated both when remembered and when read back (storage is not trusted).
 */
@injectable()
export class CheckoutIntent {
  constructor(@inject(TYPES.Storage) private readonly storage: KeyValueStorage) {}

  remember(kind: CheckoutKind, returnPath?: string | null): void {
    const record: CheckoutIntentRecord = { kind, returnPath: safeReturnPath(returnPath) };
    this.storage.set(STORAGE_KEYS.checkoutIntent, JSON.stringify(record));
  }

  /** The remembered intent, removed from storage; null when there is none or it is unreadable. */
  take(): CheckoutIntentRecord | null {
    const raw = this.storage.get(STORAGE_KEYS.checkoutIntent);
    if (raw === null) return null;
    this.storage.remove(STORAGE_KEYS.checkoutIntent);
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed !== 'object' || parsed === null) return null;
      const { kind, returnPath } = parsed as Record<string, unknown>;
      if (kind !== 'plan' && kind !== 'add_on') return null;
      return { kind, returnPath: safeReturnPath(returnPath) };
    } catch {
      return null;
    }
  }
}

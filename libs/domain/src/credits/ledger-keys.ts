/**
 * Every idempotency key of the credit ledger, in one place: each kind of entry has its own prefix,
 * so no key of one kind can ever equal a key of another. Clients' keys are only ever used under
 * `prompt:` (a client could otherwise pre-empt its own referral bonus or add-on grant, or a
 * friend's referral bonus).
 */

/** A prompt's debit, keyed by the client's Idempotency-Key. */
export const promptDebitKey = (clientKey: string): string => `prompt:${clientKey}`;

/** The client's key back from a prompt's debit key (for replies); other keys as they are. */
export const clientKeyOf = (ledgerKey: string): string => (ledgerKey.startsWith('prompt:') ? ledgerKey.slice('prompt:'.length) : ledgerKey);

/** The credit an AI turn's task `index` costs. */
export const turnTaskDebitKey = (turnId: string, index: number): string => `turn:${turnId}:task:${index}`;

/** The refund of a debit: at most one per debit. */
export const refundKeyFor = (debitKey: string): string => `refund:${debitKey}`;

/**
 * An allowance cycle's grant: one per start instant and allowance per account, so a plan change
 * that re-anchors at the same instant still resets the allowance.
 */
export const cycleKey = (start: Date, allowance: number | null): string => `cycle:${start.toISOString()}:${allowance ?? 'unlimited'}`;

/** Both grants of a referral are keyed by the referee, so each side is paid once, ever. */
export const referralGrantKeys = (refereeId: string) => ({
  referee: 'referral:welcome',
  referrer: `referral:friend:${refereeId}`,
});

/** An add-on purchase started by a user (the payment's idempotency key at the provider). */
export const addOnPurchaseKey = (profileId: string, purchaseId: string): string => `addon:${profileId}:${purchaseId}`;

/** The credits granted for a paid add-on, once per payment. */
export const addOnGrantKey = (paymentKey: string): string => `addon:${paymentKey}`;

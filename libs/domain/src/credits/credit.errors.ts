import type { DomainError } from '../shared/domain-error.js';

/** SPEC §5: the credit limit is reached — the upgrade dialog opens with limit type "credit". */
export type CreditLimitReached = DomainError<'CREDITS.LIMIT_REACHED'> & {
  readonly limitType: 'credit';
  readonly available: number;
  readonly requested: number;
};
export type IdempotencyConflict = DomainError<'CREDITS.IDEMPOTENCY_CONFLICT'> & { readonly key: string };
export type InvalidCreditAmount = DomainError<'CREDITS.INVALID_AMOUNT'> & { readonly amount: number };
export type UnknownDebit = DomainError<'CREDITS.UNKNOWN_DEBIT'> & { readonly debitKey: string };
export type AlreadyRefunded = DomainError<'CREDITS.ALREADY_REFUNDED'> & {
  readonly debitKey: string;
  readonly refundKey: string;
};
export type InvalidCycle = DomainError<'CREDITS.INVALID_CYCLE'>;

export type CreditError =
  | CreditLimitReached
  | IdempotencyConflict
  | InvalidCreditAmount
  | UnknownDebit
  | AlreadyRefunded
  | InvalidCycle;

export const creditLimitReached = (available: number, requested: number): CreditLimitReached => ({
  code: 'CREDITS.LIMIT_REACHED',
  limitType: 'credit',
  available,
  requested,
  message: "You've used all your credits. Upgrade your plan or buy add-on credits to keep building.",
});

export const idempotencyConflict = (key: string): IdempotencyConflict => ({
  code: 'CREDITS.IDEMPOTENCY_CONFLICT',
  key,
  message: `Idempotency key ${key} was already used for a different operation`,
});

export const invalidCreditAmount = (amount: number): InvalidCreditAmount => ({
  code: 'CREDITS.INVALID_AMOUNT',
  amount,
  message: `Credit amounts are positive whole numbers, got ${amount}`,
});

export const unknownDebit = (debitKey: string): UnknownDebit => ({
  code: 'CREDITS.UNKNOWN_DEBIT',
  debitKey,
  message: `No debit with key ${debitKey}`,
});

export const alreadyRefunded = (debitKey: string, refundKey: string): AlreadyRefunded => ({
  code: 'CREDITS.ALREADY_REFUNDED',
  debitKey,
  refundKey,
  message: `Debit ${debitKey} was already refunded by ${refundKey}`,
});

export const invalidCycle = (message: string): InvalidCycle => ({ code: 'CREDITS.INVALID_CYCLE', message });

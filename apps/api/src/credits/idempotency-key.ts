import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { Request } from 'express';
import { validationFailed } from '../error-mapping.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;
/** 1–200 printable ASCII characters (space allowed inside, not at the ends). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e](?:[\x20-\x7e]{0,198}[\x21-\x7e])?$/;

/** Why a client's idempotency key is refused, or null when it is fine. */
export function idempotencyKeyProblem(key: unknown): string | null {
  if (key === undefined || key === null || key === '') return 'is required';
  if (typeof key !== 'string') return 'must be text';
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) return `must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) return 'must be printable ASCII characters without leading or trailing spaces';
  return null;
}

/**
 * The ledger key of a prompt's debit. Clients' keys live under their own prefix so that no
 * key a client chooses can ever collide with a key the server uses for other entries
 * (`referral:welcome`, `addon:<payment>`, `refund:<debit>`, `cycle:…`): a client could
 * otherwise pre-empt its own referral bonus or add-on grant, or a friend's referral bonus.
 */
export const promptDebitKey = (clientKey: string): string => `prompt:${clientKey}`;

/** The client's key back from a ledger debit key (for replies). */
export const clientKeyOf = (ledgerKey: string): string => (ledgerKey.startsWith('prompt:') ? ledgerKey.slice('prompt:'.length) : ledgerKey);

/** The validated `Idempotency-Key` header; a missing or malformed one is a 400 VALIDATION_FAILED. */
export const IdempotencyKey = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const value = context.switchToHttp().getRequest<Request>().headers['idempotency-key'];
  const problem = idempotencyKeyProblem(value);
  if (problem !== null) throw validationFailed([`${IDEMPOTENCY_KEY_HEADER}: header ${problem}`]);
  return value as string;
});

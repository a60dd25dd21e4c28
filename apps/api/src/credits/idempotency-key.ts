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

/** The validated `Idempotency-Key` header; a missing or malformed one is a 400 VALIDATION_FAILED. */
export const IdempotencyKey = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const value = context.switchToHttp().getRequest<Request>().headers['idempotency-key'];
  const problem = idempotencyKeyProblem(value);
  if (problem !== null) throw validationFailed([`${IDEMPOTENCY_KEY_HEADER}: header ${problem}`]);
  return value as string;
});

import type { DomainError } from '../../shared/domain-error.js';
import type { TurnStatus } from './turn.entity.js';

/** No such turn in this project (or not the caller's). */
export type TurnNotFound = DomainError<'TURNS.NOT_FOUND'> & { readonly turnId: string };
/** Accept and cancel need a plan that waits for approval. */
export type TurnNotAwaitingApproval = DomainError<'TURNS.NOT_AWAITING_APPROVAL'> & { readonly turnId: string; readonly status: TurnStatus };
/** The idempotency key was used for another message or project. */
export type TurnIdempotencyConflict = DomainError<'TURNS.IDEMPOTENCY_CONFLICT'> & { readonly idempotencyKey: string };
/** A retried request whose turn is still queued or running. */
export type TurnInProgress = DomainError<'TURNS.IN_PROGRESS'> & { readonly turnId: string };

/** The message is blank or too long (the API's DTO refuses it first, with the same words). */
export type TurnMessageInvalid = DomainError<'VALIDATION_FAILED'> & { readonly detail: readonly string[] };

export type TurnError = TurnNotFound | TurnNotAwaitingApproval | TurnIdempotencyConflict | TurnInProgress | TurnMessageInvalid;

export const turnMessageInvalid = (problem: string): TurnMessageInvalid => ({
  code: 'VALIDATION_FAILED',
  message: 'Validation failed',
  detail: [`message: ${problem}`],
});

export const turnNotFound = (turnId: string): TurnNotFound => ({ code: 'TURNS.NOT_FOUND', turnId, message: 'This message does not exist in this project.' });

export const turnNotAwaitingApproval = (turnId: string, status: TurnStatus): TurnNotAwaitingApproval => ({
  code: 'TURNS.NOT_AWAITING_APPROVAL',
  turnId,
  status,
  message: `This plan is not waiting for approval (it is ${status.replace('_', ' ')}).`,
});

export const turnIdempotencyConflict = (idempotencyKey: string): TurnIdempotencyConflict => ({
  code: 'TURNS.IDEMPOTENCY_CONFLICT',
  idempotencyKey,
  message: 'This idempotency key was already used for another message.',
});

export const turnInProgress = (turnId: string): TurnInProgress => ({
  code: 'TURNS.IN_PROGRESS',
  turnId,
  message: 'This message is still being worked on.',
});

/** The API stopped (a crash, a restart) while the turn was queued or running; the next start undid it. */
export type TurnInterrupted = DomainError<'TURNS.INTERRUPTED'>;

export const turnInterrupted = (): TurnInterrupted => ({
  code: 'TURNS.INTERRUPTED',
  message: 'This message was interrupted when the server restarted. Nothing was kept and any credits were refunded.',
});

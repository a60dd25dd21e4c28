import { type Result, err, ok } from '../../shared/result.js';
import { type TurnMessageInvalid, turnMessageInvalid } from './turn.errors.js';
import type { AiPlan } from '../ai-assistant.port.js';

/**
 * Where a turn is:
 * - queued: waiting for the project's previous turn to finish (one turn at a time per project);
 * - running: planning, running its tasks, checking and repairing;
 * - awaiting_approval: a plan of several tasks waits for the person's accept (nothing charged);
 * - kept: its changes are committed; reverted: its changes were undone and its credits refunded;
 * - failed: it could not finish (the provider failed, the sandbox failed): nothing kept, refunded;
 * - cancelled: a waiting plan the person dropped.
 */
export type TurnStatus = 'queued' | 'running' | 'awaiting_approval' | 'kept' | 'reverted' | 'failed' | 'cancelled';

export const FINISHED_TURN_STATUSES: readonly TurnStatus[] = Object.freeze(['kept', 'reverted', 'failed', 'cancelled']);

/** A plan as the turn keeps it: the assistant's plan, marked when running it replaces the app (replace-app-rule.ts). */
export type TurnPlan = AiPlan & { readonly replacesApp?: boolean };

/** One user message of a project's chat and what became of it. */
export interface Turn {
  readonly id: string;
  readonly userId: string;
  readonly projectId: string;
  /** The client's key for this message (unique per user): a retried request finds this turn. */
  readonly idempotencyKey: string;
  readonly message: string;
  /** Run a plan of several tasks without waiting for approval. */
  readonly autoRun: boolean;
  readonly status: TurnStatus;
  /** The plan, once made (null before planning and when planning failed). */
  readonly plan: TurnPlan | null;
  /** The assistant's words, as streamed. */
  readonly reply: string;
  /** The last word on the turn (done's message, or the failure's detail); null while it runs. */
  readonly outcome: string | null;
  /** The code of the failure that ended a failed turn. */
  readonly failureCode: string | null;
  /** The version holding a kept turn's changes (none when nothing changed or saving it failed). */
  readonly commitHash: string | null;
  /** Credits debited for the turn's tasks, and how many of them were refunded. */
  readonly creditsCharged: number;
  readonly creditsRefunded: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface NewTurnInput {
  readonly userId: string;
  readonly projectId: string;
  readonly idempotencyKey: string;
  readonly message: string;
  readonly autoRun: boolean;
}

/** docs/ai-api.md: a message is 1 to 20,000 characters and not blank. */
export const MAX_TURN_MESSAGE_LENGTH = 20_000;

/** A new turn; its message must be 1..MAX_TURN_MESSAGE_LENGTH characters, not only blanks. */
export function createTurn(input: NewTurnInput, context: { readonly id: string; readonly now: Date }): Result<Turn, TurnMessageInvalid> {
  if (!/\S/.test(input.message)) return err(turnMessageInvalid('must not be blank'));
  if (input.message.length > MAX_TURN_MESSAGE_LENGTH) return err(turnMessageInvalid(`must be at most ${MAX_TURN_MESSAGE_LENGTH} characters`));
  return ok(Object.freeze({
    id: context.id,
    userId: input.userId,
    projectId: input.projectId,
    idempotencyKey: input.idempotencyKey,
    message: input.message,
    autoRun: input.autoRun,
    status: 'queued',
    plan: null,
    reply: '',
    outcome: null,
    failureCode: null,
    commitHash: null,
    creditsCharged: 0,
    creditsRefunded: 0,
    createdAt: context.now,
    updatedAt: context.now,
  }));
}

export const isFinished = (turn: Turn): boolean => FINISHED_TURN_STATUSES.includes(turn.status);

/** What a plan costs: one credit per task, and a plan of no task runs the message as one. */
export const planCost = (plan: AiPlan): number => Math.max(1, plan.tasks.length);


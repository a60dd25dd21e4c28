import type { AiPhase } from '../ai-phase.js';
import type { ErrorScan } from '../../sandbox/error-scan.js';
import type { DomainError } from '../../shared/domain-error.js';
import type { AiPlan } from '../ai-assistant.port.js';
import type { FileOperationType } from '../operations/file-operation.js';

/** How a turn ended (the done event). */
export type TurnDoneStatus = 'kept' | 'reverted' | 'failed';

/**
 * What a running turn reports, in order (docs/ai-api.md "Turn events"): `turn` first, then
 * phases, the plan, tasks with their text and operations, checks, credits, and exactly one of
 * `awaiting_approval`, `done` or `error` last. `files_changed` is for the server only (the API
 * publishes it on the project's realtime feed; it is not part of the turn stream).
 */
export type TurnEvent =
  | { readonly type: 'turn'; readonly turnId: string; readonly message: string }
  | { readonly type: 'phase'; readonly phase: AiPhase }
  /** replacesApp: a new app on a project that has one; it always waits for approval (replace-app-rule.ts). */
  | { readonly type: 'plan'; readonly plan: AiPlan; readonly cost: number; readonly replacesApp: boolean }
  | { readonly type: 'awaiting_approval'; readonly turnId: string; readonly cost: number }
  | { readonly type: 'task'; readonly taskId: string; readonly index: number; readonly title: string; readonly state: 'running' | 'done' | 'failed' }
  | { readonly type: 'text'; readonly taskId: string | null; readonly text: string }
  | { readonly type: 'operation'; readonly taskId: string; readonly operation: FileOperationType; readonly path?: string }
  | { readonly type: 'checking'; readonly round: number }
  | { readonly type: 'errors'; readonly round: number; readonly scan: ErrorScan }
  | { readonly type: 'credits'; readonly charged: number; readonly refunded: number; readonly creditsRemaining: number }
  | { readonly type: 'files_changed'; readonly paths: readonly string[] }
  | { readonly type: 'done'; readonly status: TurnDoneStatus; readonly message: string; readonly commitHash?: string }
  | {
      readonly type: 'error';
      /** The error with its data (e.g. CREDITS.LIMIT_REACHED with limitType, AI.PROVIDER_FAILED). */
      readonly error: DomainError;
      /**
       * False when the turn never started: nothing was charged and nothing changed (the first
       * debit was refused, or planning failed). The API answers a refused first debit as an
       * ordinary 402 instead of a stream.
       */
      readonly started: boolean;
      /** The underlying exception of an infrastructure failure, for the server's logs only. */
      readonly cause?: unknown;
    };

export type TurnEventType = TurnEvent['type'];

/**
 * The refusal a turn ended with before anything was charged or changed — its first credit was
 * refused (CREDITS.LIMIT_REACHED) — or null. Such a turn is answered as an ordinary error (the
 * API's 402) rather than a stream; every other ending is part of the stream.
 */
export function refusedBeforeStart(event: TurnEvent): DomainError | null {
  return event.type === 'error' && !event.started && event.error.code === 'CREDITS.LIMIT_REACHED' ? event.error : null;
}

/** Events up to this one are held back: after it, the turn is a stream whatever happens. */
export const streamsFrom = (event: TurnEvent): boolean => event.type === 'credits';

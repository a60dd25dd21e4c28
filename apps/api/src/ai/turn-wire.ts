import { type AiPlan, type ErrorScan, errorScanStatus, type TurnEvent } from '@kiln/domain';
import { errorBodyOf } from '../error-mapping.js';
import { PlanView } from './dto/turn.dto.js';

/** A turn event as it goes on the wire (docs/ai-api.md "Turn events"): SSE event name and JSON data. */
export interface WireEvent {
  readonly event: string;
  readonly data: Record<string, unknown>;
}

/** A plan as stream-modules / stream-tasks send it: `{ kind, modules, tasks, cost }` (a turn's plan event adds `replaces_app`). */
export function planData(plan: AiPlan): Record<string, unknown> {
  const { replaces_app: _replacesApp, ...data } = PlanView.from(plan);
  return data;
}

/** A turn's check; `status: 'unavailable'` (with `unavailable_reason`) when it could not run. */
export function scanData(round: number, scan: ErrorScan): Record<string, unknown> {
  return {
    round,
    error_count: scan.errorCount,
    warning_count: scan.warningCount,
    errors: scan.errors.map((e) => ({ message: e.message, file: e.file, line: e.line, column: e.column, severity: e.severity })),
    status: errorScanStatus(scan),
    ...(scan.unavailableReason === undefined ? {} : { unavailable_reason: scan.unavailableReason }),
  };
}

/** The wire form of a turn event; null for events that are not sent to the client (files_changed). */
export function wireEvent(event: TurnEvent): WireEvent | null {
  switch (event.type) {
    case 'turn':
      return { event: 'turn', data: { turn_id: event.turnId, message: event.message } };
    case 'phase':
      return { event: 'phase', data: { phase: event.phase } };
    case 'plan':
      return { event: 'plan', data: { ...planData(event.plan), cost: event.cost, replaces_app: event.replacesApp } };
    case 'awaiting_approval':
      return { event: 'awaiting_approval', data: { turn_id: event.turnId, cost: event.cost } };
    case 'task':
      return { event: 'task', data: { task_id: event.taskId, index: event.index, title: event.title, state: event.state } };
    case 'text':
      return { event: 'text', data: { task_id: event.taskId, text: event.text } };
    case 'operation':
      return { event: 'operation', data: { task_id: event.taskId, type: event.operation, ...(event.path !== undefined ? { path: event.path } : {}) } };
    case 'checking':
      return { event: 'checking', data: { round: event.round } };
    case 'errors':
      return { event: 'errors', data: scanData(event.round, event.scan) };
    case 'credits':
      return { event: 'credits', data: { charged: event.charged, refunded: event.refunded, credits_remaining: event.creditsRemaining } };
    case 'done':
      return { event: 'done', data: { status: event.status, message: event.message, ...(event.commitHash !== undefined ? { commit_hash: event.commitHash } : {}) } };
    case 'error':
      return { event: 'error', data: errorData(event.error) };
    case 'files_changed':
      return null;
  }
}

/** `{ code, detail, ...data }`; a provider's HTTP status is `provider_status` (not ours). */
export function errorData(error: Parameters<typeof errorBodyOf>[0]): Record<string, unknown> {
  const { status, ...body } = errorBodyOf(error) as Record<string, unknown>;
  return status === undefined ? body : { ...body, provider_status: status };
}

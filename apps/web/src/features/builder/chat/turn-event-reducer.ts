// How one turn event changes the reply it belongs to (docs/ai-api.md "Turn events"); what it
// means for the rest of the builder (the status line, the Problems panel, the credits) goes
// through the effects.
import { type AiPhase, type ErrorScan, errorScanFrom, unavailableErrorScan } from '@kiln/domain';
import type { TurnEvent } from '../../../api/turn-stream';
import { type AssistantMessage, DECLINED_CODE, MAX_SHOWN_OPERATIONS } from './chat-messages';

export interface ReplyEffects {
  phase(phase: AiPhase): void;
  scan(scan: ErrorScan): void;
  credits(remaining: number): void;
}

export function applyTurnEvent(reply: AssistantMessage, event: TurnEvent, effects: ReplyEffects): void {
  switch (event.type) {
    case 'turn':
      reply.turnId = event.data.turn_id;
      return;
    case 'phase':
      effects.phase(event.data.phase);
      return;
    case 'plan':
      reply.plan = event.data;
      reply.tasks = event.data.tasks.map((task, index) => ({ id: task.id, index, title: task.title, state: 'pending' }));
      return;
    case 'awaiting_approval':
      reply.turnId = event.data.turn_id;
      reply.awaitingCost = event.data.cost;
      reply.status = 'awaiting';
      return;
    case 'task': {
      const { task_id: id, index, title, state } = event.data;
      const task = reply.tasks.find((t) => t.id === id) ?? reply.tasks.find((t) => t.index === index);
      if (task) {
        task.state = state;
        if (title !== '') task.title = title;
      } else {
        reply.tasks.push({ id, index, title: title || `Task ${index + 1}`, state });
        reply.tasks.sort((a, b) => a.index - b.index);
      }
      return;
    }
    case 'text': {
      const task = event.data.task_id;
      if (reply.text !== '' && task !== reply.textTask && !reply.text.endsWith('\n')) reply.text += '\n\n';
      reply.text += event.data.text;
      reply.textTask = task;
      return;
    }
    case 'operation':
      if (reply.operations.length < MAX_SHOWN_OPERATIONS) reply.operations.push({ type: event.data.type, ...(event.data.path ? { path: event.data.path } : {}) });
      return;
    case 'checking':
      reply.checkingRound = event.data.round;
      return;
    case 'errors': {
      reply.checkingRound = null;
      const unavailable = event.data.status === 'unavailable' ? { unavailableReason: event.data.unavailable_reason ?? '' } : {};
      reply.check = { round: event.data.round, errorCount: event.data.error_count, warningCount: event.data.warning_count, ...unavailable };
      effects.scan(
        unavailable.unavailableReason !== undefined ? unavailableErrorScan(unavailable.unavailableReason) : errorScanFrom(event.data.errors.map((e) => ({ ...e }))),
      );
      return;
    }
    case 'credits':
      effects.credits(event.data.credits_remaining);
      return;
    case 'done':
      reply.status = event.data.status;
      reply.outcome = event.data.message;
      reply.commitHash = event.data.commit_hash ?? null;
      reply.checkingRound = null;
      return;
    case 'error':
      reply.checkingRound = null;
      if (event.data.code === DECLINED_CODE) {
        // The assistant's answer (what it can do instead) is its reply; nothing was charged.
        if (reply.text.trim() === '') reply.text = event.data.detail;
        reply.status = 'declined';
        reply.outcome = '';
        return;
      }
      reply.status = 'failed';
      reply.outcome = event.data.detail;
      return;
  }
}

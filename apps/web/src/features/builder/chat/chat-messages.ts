// What the chat shows: the person's messages and the assistant's replies (streamed text, plan,
// task progress, checks, the turn's outcome), and the pure rules that build them.
import { type AttachmentRef, type CodeError, DECLINED_OUTCOME, type SelectedElement, isStoppedOutcome, splitAttachments, splitSelectedElement } from '@kiln/domain';
import type { TurnHistoryDto } from '../../../api/ai.api';
import type { TurnOperationType, TurnOutcome, TurnPlanDto } from '../../../api/turn-stream';

export interface UserMessage {
  readonly kind: 'user';
  readonly id: string;
  /** The person's words (without the selected element's line). */
  readonly text: string;
  /** The element picked in the preview that the message is about, or null. */
  readonly selected: SelectedElement | null;
  /** The files attached to it (issue 18). */
  readonly attachments: readonly AttachmentRef[];
  /** 'refused': a plan limit stopped it before it reached the assistant. */
  state: 'sent' | 'refused';
}

/** A message the person sent, as the chat shows it: their words, the element it was about, its files. */
export function userMessage(id: string, message: string, state: UserMessage['state'] = 'sent'): UserMessage {
  const { words: withFiles, element } = splitSelectedElement(message);
  const { words, attachments } = splitAttachments(withFiles);
  return { kind: 'user', id, text: words, selected: element, attachments, state };
}

export type TaskState = 'pending' | 'running' | 'done' | 'failed';

export interface TaskProgress {
  readonly id: string;
  index: number;
  title: string;
  state: TaskState;
}

/**
 * running: streaming now; awaiting: a plan waits for Run plan / Cancel plan; kept, reverted,
 * failed: the turn's end (docs/ai-api.md `done` / `error`); declined: the assistant said it cannot
 * do this (AI.DECLINED, nothing charged); cancelled: a waiting plan dropped; unknown: a turn of the
 * history still under way (or of a status this client does not know).
 */
export type ReplyStatus = 'running' | 'awaiting' | TurnOutcome | 'declined' | 'cancelled' | 'unknown';

/** The error code of a turn the assistant declined before anything was charged. */
export const DECLINED_CODE = 'AI.DECLINED';

export interface AssistantMessage {
  readonly kind: 'assistant';
  readonly id: string;
  turnId: string | null;
  text: string;
  plan: TurnPlanDto | null;
  tasks: TaskProgress[];
  operations: { readonly type: TurnOperationType; readonly path?: string }[];
  /** The find-errors round under way, or null. */
  checkingRound: number | null;
  /** What the last find-errors round found. */
  check: TurnCheck | null;
  status: ReplyStatus;
  /** The server's words about the outcome (done's message, error's detail). */
  outcome: string;
  commitHash: string | null;
  /** Credits a waiting plan will use when it runs. */
  awaitingCost: number | null;
  /** Running a waiting plan failed before it started. */
  planError: string | null;
  /** Error records this turn is fixing ("Fix with AI"). */
  fixing: string[];
  /** The task whose text came last (a new task's text starts a new paragraph). */
  textTask: string | null;
}

export type ChatMessage = UserMessage | AssistantMessage;

/** Operations kept per reply for display (a big build writes many files). */
export const MAX_SHOWN_OPERATIONS = 40;

export function newAssistantMessage(id: string, fixing: readonly string[] = []): AssistantMessage {
  return {
    kind: 'assistant',
    id,
    turnId: null,
    text: '',
    plan: null,
    tasks: [],
    operations: [],
    checkingRound: null,
    check: null,
    status: 'running',
    outcome: '',
    commitHash: null,
    awaitingCost: null,
    planError: null,
    fixing: [...fixing],
    textTask: null,
  };
}

/** A kept turn that changed nothing (no operation, no commit). */
export const NOTHING_CHANGED = 'Done: nothing in your project needed to change.';

/**
 * The words of a reply's final line: 'Kept as a new version', 'Reverted: …'; null while it
 * runs. A kept turn without a commit and without operations made no version: it says so.
 */
export function outcomeText(message: Pick<AssistantMessage, 'status' | 'outcome'> & Partial<Pick<AssistantMessage, 'commitHash' | 'operations'>>): string | null {
  const detail = message.outcome.trim();
  switch (message.status) {
    case 'kept':
      return message.commitHash === null && (message.operations?.length ?? 0) === 0 ? NOTHING_CHANGED : 'Kept as a new version';
    case 'reverted':
      // A turn the person stopped says so itself ("Stopped. Your app is as it was …").
      if (isStoppedOutcome(detail)) return detail;
      return `Reverted: ${detail || 'your project was put back as it was, and the credits refunded.'}`;
    case 'failed':
      return `Failed: ${detail || 'something went wrong. Nothing was changed.'}`;
    case 'declined':
      return DECLINED_OUTCOME;
    case 'cancelled':
      return 'Plan cancelled. Nothing was charged.';
    case 'unknown':
      return 'Still working on this when the page opened.';
    default:
      return null;
  }
}

/** The message "Fix with AI" sends: 'Fix this error in src/App.tsx:3:5: Cannot find name 'x'.' */
export function fixErrorMessage(error: CodeError): string {
  return `Fix this error in ${error.file}:${error.line}:${error.column}: ${error.message}`;
}

/** Short commit hash for display. */
export function shortHash(hash: string): string {
  return hash.slice(0, 7);
}

const HISTORY_STATUS: Readonly<Record<string, ReplyStatus>> = {
  kept: 'kept',
  reverted: 'reverted',
  failed: 'failed',
  cancelled: 'cancelled',
  canceled: 'cancelled',
  awaiting_approval: 'awaiting',
  awaiting: 'awaiting',
};

/** GET turns as chat messages: each turn is the person's message and the assistant's reply. */
export function messagesFromHistory(turns: readonly TurnHistoryDto[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const turn of turns) {
    messages.push(userMessage(`${turn.id}:user`, turn.message));
    const reply = newAssistantMessage(`${turn.id}:reply`);
    const status = turn.status === 'failed' && turn.failure_code === DECLINED_CODE ? 'declined' : (HISTORY_STATUS[turn.status] ?? 'unknown');
    reply.turnId = turn.id;
    reply.text = turn.reply ?? '';
    reply.outcome = turn.outcome ?? '';
    reply.plan = planFromHistory(turn.plan);
    reply.status = status;
    reply.commitHash = turn.commit_hash ?? null;
    if (reply.plan !== null) {
      const final = status === 'kept' || status === 'reverted';
      reply.tasks = reply.plan.tasks.map((task, index) => ({ id: task.id, index, title: task.title, state: final ? 'done' : 'pending' }));
    }
    if (status === 'awaiting') reply.awaitingCost = reply.plan?.cost ?? reply.tasks.length;
    messages.push(reply);
  }
  return messages;
}

/** What a plan costs, as its card shows it: the cost the server asked approval for, else the plan's. */
export function planCost(message: AssistantMessage): number {
  return message.awaitingCost ?? message.plan?.cost ?? 0;
}

/** A stored plan, read leniently (its cost is one credit per task when not given). */
function planFromHistory(plan: TurnPlanDto | null | undefined): TurnPlanDto | null {
  if (plan === null || plan === undefined || typeof plan !== 'object' || !Array.isArray(plan.tasks)) return null;
  const tasks = plan.tasks.map((task, index) => ({ ...task, id: String(task.id ?? index), title: task.title ?? `Task ${index + 1}` }));
  return {
    kind: plan.kind === 'edit' ? 'edit' : 'build',
    modules: Array.isArray(plan.modules) ? plan.modules : [],
    tasks,
    cost: typeof plan.cost === 'number' ? plan.cost : Math.max(1, tasks.length),
    ...(plan.replaces_app === true ? { replaces_app: true } : {}),
  };
}

/** A turn's find-errors round; `unavailableReason` when the check could not run (its counts then mean nothing). */
export interface TurnCheck {
  readonly round: number;
  readonly errorCount: number;
  readonly warningCount: number;
  readonly unavailableReason?: string;
}

/** 'Check: 1 error, 0 warnings', or why the check could not run (never a count then). */
export function checkSummary(check: TurnCheck): string {
  if (check.unavailableReason !== undefined) return `The check could not run: ${check.unavailableReason}`;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `Check: ${plural(check.errorCount, 'error')}, ${plural(check.warningCount, 'warning')}`;
}

import {
  type AiAssistant,
  type AiFailure,
  type AiMessage,
  type AiModelInfo,
  type AiPlan,
  type AssistantEvent,
  type CompletionEvent,
  type CompletionInput,
  type PlanEvent,
  type PlanInput,
  type TaskInput,
} from '../../ai-assistant.port.js';
import type { FileOperation } from '../../operations/file-operation.js';

/** One scripted answer of runTask: text and operations, optionally failing at the end. */
export interface ScriptedAnswer {
  readonly text?: string;
  readonly operations?: readonly FileOperation[];
  /** The provider fails after the text and operations (they are then not applied). */
  readonly error?: AiFailure;
}

export type AnswerScript = ScriptedAnswer | ((input: TaskInput) => ScriptedAnswer);

export const SINGLE_TASK_PLAN: AiPlan = Object.freeze({
  kind: 'edit',
  modules: [{ id: 'm1', title: 'Change', description: 'The change' }],
  tasks: [{ id: 't1', moduleId: 'm1', title: 'Make the change', description: 'The change' }],
});

export function planOf(taskCount: number): AiPlan {
  return {
    kind: 'build',
    modules: [{ id: 'm1', title: 'App', description: 'The app' }],
    tasks: Array.from({ length: taskCount }, (_, i) => ({ id: `t${i + 1}`, moduleId: 'm1', title: `Task ${i + 1}`, description: `Step ${i + 1}` })),
  };
}

/** A plan of `taskCount` tasks that changes the current app (kind 'edit'). */
export function editPlanOf(taskCount: number): AiPlan {
  return { ...planOf(taskCount), kind: 'edit' };
}

/**
 * A fake AiAssistant for turn tests: plans and answers come from queues (a single-task plan and
 * an empty answer when they run out); every input is recorded.
 */
export class ScriptedAiAssistant implements AiAssistant {
  readonly model: AiModelInfo = { provider: 'scripted', id: 'scripted-1', offline: true };
  readonly plans: (AiPlan | AiFailure)[] = [];
  readonly answers: AnswerScript[] = [];
  readonly planInputs: PlanInput[] = [];
  readonly taskInputs: TaskInput[] = [];

  constructor(options: { plans?: readonly (AiPlan | AiFailure)[]; answers?: readonly AnswerScript[] } = {}) {
    this.plans.push(...(options.plans ?? []));
    this.answers.push(...(options.answers ?? []));
  }

  async *plan(input: PlanInput): AsyncIterable<PlanEvent> {
    this.planInputs.push(input);
    const next = this.plans.shift() ?? SINGLE_TASK_PLAN;
    if ('code' in next) {
      yield { type: 'error', error: next };
      return;
    }
    for (const module of next.modules) yield { type: 'module', module };
    for (const task of next.tasks) yield { type: 'task', task };
    yield { type: 'done', plan: next };
  }

  async *runTask(input: TaskInput): AsyncIterable<AssistantEvent> {
    this.taskInputs.push(input);
    const script = this.answers.shift() ?? {};
    const answer = typeof script === 'function' ? script(input) : script;
    if (answer.text !== undefined) yield { type: 'text', text: answer.text };
    for (const operation of answer.operations ?? []) yield { type: 'operation', operation };
    if (answer.error !== undefined) {
      yield { type: 'error', error: answer.error };
      return;
    }
    yield { type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } };
    yield { type: 'done', finishReason: 'stop' };
  }

  async summarize(messages: readonly AiMessage[]): Promise<string> {
    return `${messages.length} messages`;
  }

  async *complete(input: CompletionInput): AsyncIterable<CompletionEvent> {
    yield { type: 'text', text: `Answer to ${input.messages.length} messages` };
    yield { type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } };
    yield { type: 'done', finishReason: 'stop' };
  }

  async enhancePrompt(prompt: string): Promise<string> {
    return `Enhanced: ${prompt}`;
  }
}

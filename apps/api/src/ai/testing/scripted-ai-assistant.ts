import {
  type AiAssistant,
  type AiFailure,
  type AiMessage,
  type AiModelInfo,
  type AiPlan,
  type AssistantEvent,
  type CompletionEvent,
  type CompletionInput,
  type FileOperation,
  type PlanEvent,
  type PlanInput,
  type SummarizeOptions,
  type TaskInput,
} from '@kiln/domain';

export interface ScriptedAnswer {
  readonly text?: string;
  readonly operations?: readonly FileOperation[];
  readonly error?: AiFailure;
  /** After its text, the answer waits until the turn is stopped (its signal aborts), then fails AI.ABORTED as a provider would. */
  readonly untilStopped?: boolean;
}

/** A plan of `n` tasks (module m1, tasks t1…tn). */
export function planOf(n: number): AiPlan {
  return {
    kind: n > 1 ? 'build' : 'edit',
    modules: [{ id: 'm1', title: 'App', description: 'The app' }],
    tasks: Array.from({ length: n }, (_, i) => ({ id: `t${i + 1}`, moduleId: 'm1', title: `Task ${i + 1}`, description: `Step ${i + 1}` })),
  };
}

/**
 * A fake AiAssistant for API tests: plans and answers from queues (a one-task plan and an empty
 * answer when they run out), a failure on demand for the promise methods, every input recorded.
 */
export class ScriptedAiAssistant implements AiAssistant {
  readonly model: AiModelInfo = { provider: 'scripted', id: 'scripted-1', offline: true };
  readonly plans: (AiPlan | AiFailure)[] = [];
  readonly answers: (ScriptedAnswer | ((input: TaskInput) => ScriptedAnswer))[] = [];
  readonly planInputs: PlanInput[] = [];
  readonly taskInputs: TaskInput[] = [];
  readonly completionInputs: CompletionInput[] = [];
  /** When set, summarize and enhancePrompt reject with it (as the AI SDK adapter does), and complete ends with it as an 'error' event. */
  failure: AiFailure | null = null;

  async *plan(input: PlanInput): AsyncIterable<PlanEvent> {
    this.planInputs.push(input);
    const next = this.plans.shift() ?? planOf(1);
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
    if (answer.untilStopped === true) {
      const signal = input.signal;
      if (signal !== undefined && !signal.aborted) await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      yield { type: 'error', error: { code: 'AI.ABORTED', message: 'The request was aborted.' } };
      return;
    }
    for (const operation of answer.operations ?? []) yield { type: 'operation', operation };
    if (answer.error !== undefined) {
      yield { type: 'error', error: answer.error };
      return;
    }
    yield { type: 'done', finishReason: 'stop' };
  }

  async summarize(messages: readonly AiMessage[], options: SummarizeOptions = {}): Promise<string> {
    if (this.failure) throw new Error(this.failure.message, { cause: this.failure });
    return `Summary of ${messages.length} messages${options.instruction ? ` (${options.instruction})` : ''}`;
  }

  /** Answers "Answer (<format>) to: <the last message>" in pieces of a few characters, then usage and done. */
  async *complete(input: CompletionInput): AsyncIterable<CompletionEvent> {
    this.completionInputs.push(input);
    if (this.failure) {
      yield { type: 'text', text: 'Partial' };
      yield { type: 'error', error: this.failure };
      return;
    }
    const answer = `Answer (${input.responseFormat ?? 'text'}) to: ${input.messages.at(-1)?.content ?? ''}`;
    for (const piece of answer.match(/.{1,8}/gs) ?? []) yield { type: 'text', text: piece };
    yield { type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } };
    yield { type: 'done', finishReason: 'stop' };
  }

  async enhancePrompt(prompt: string, templateId?: string): Promise<string> {
    if (this.failure) throw new Error(this.failure.message, { cause: this.failure });
    return `Enhanced${templateId ? ` for ${templateId}` : ''}: ${prompt}`;
  }
}

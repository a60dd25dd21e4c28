import { userContent } from './attachment-parts.js';
import {
  aiFailure,
  parseFileOperation,
  validateOperation,
  type AbortSignalLike,
  type AiAssistant,
  type AiFailure,
  type AiMessage,
  type AiModelInfo,
  type AiPlan,
  type AiUsage,
  type AssistantEvent,
  type CompletionEvent,
  type CompletionInput,
  type PlanEvent,
  type PlannedModule,
  type PlannedTask,
  type PlanInput,
  type SummarizeOptions,
  type TaskInput,
} from '@kiln/domain';
import { APICallError, generateText, isStepCount, Output, RetryError, streamText, type Instructions, type LanguageModel, type LanguageModelUsage, type ModelMessage, type ToolSet } from 'ai';
import { DATABASE_TASK_STEPS, DATABASE_TOOL_ORDER, databaseTools, migrationWrite } from './database-tools.js';
import { CACHE_EPHEMERAL, FILE_OPERATION_TOOL_ORDER, fileOperationTools, PLAN_SCHEMA, planTool } from './file-operation-tools.js';
import { ENHANCE_SYSTEM_PROMPT, JSON_ANSWER_INSTRUCTION, PLAN_SYSTEM_PROMPT, planMessage, SUMMARIZE_SYSTEM_PROMPT, TASK_SYSTEM_PROMPT, taskMessage } from './prompts.js';

export interface AiSdkAssistantOptions {
  /** A language model of any AI SDK provider. */
  readonly model: LanguageModel;
  readonly info: AiModelInfo;
  /** Mark the system prompt and the tools for the provider's prompt cache (Anthropic). */
  readonly promptCaching?: boolean;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  /** Retries of a failed call inside the SDK (default 1). */
  readonly maxRetries?: number;
}

/** The failure of a provider call, as the port describes it. */
export function failureOf(error: unknown, signal?: AbortSignal): AiFailure {
  if (signal?.aborted || (error instanceof Error && error.name === 'AbortError')) return aiFailure('AI.ABORTED', 'The request was cancelled.');
  if (APICallError.isInstance(error)) return aiFailure('AI.PROVIDER_FAILED', error.message, error.statusCode);
  // The SDK's retries gave up: the provider's own status is on the last attempt's error.
  if (RetryError.isInstance(error) && APICallError.isInstance(error.lastError)) return aiFailure('AI.PROVIDER_FAILED', error.message, error.lastError.statusCode);
  return aiFailure('AI.PROVIDER_FAILED', error instanceof Error ? error.message : String(error));
}

/** Thrown by the promise methods: an Error whose `cause` is the AiFailure. */
export class AiCallFailed extends Error {
  constructor(readonly failure: AiFailure) {
    super(failure.message, { cause: failure });
    this.name = 'AiCallFailed';
  }
}

function usageOf(usage: LanguageModelUsage): AiUsage {
  const cacheRead = usage.inputTokenDetails?.cacheReadTokens;
  const cacheWrite = usage.inputTokenDetails?.cacheWriteTokens;
  return {
    inputTokens: usage.inputTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
    ...(cacheRead !== undefined ? { cacheReadTokens: cacheRead } : {}),
    ...(cacheWrite !== undefined ? { cacheWriteTokens: cacheWrite } : {}),
  };
}

/** A real AbortSignal that follows the port's signal (which may be any AbortSignal-like object). */
function linkSignal(signal: AbortSignalLike | undefined): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  if (!signal) return { signal: controller.signal, release: () => undefined };
  const abort = () => controller.abort();
  if (signal.aborted) controller.abort();
  else signal.addEventListener('abort', abort);
  return { signal: controller.signal, release: () => signal.removeEventListener('abort', abort) };
}

function toModelMessages(history: readonly AiMessage[]): ModelMessage[] {
  return history.map((m) => ({ role: m.role, content: m.content }));
}

/** The last step of a task that may look at rows offers no more looking: the model writes. */
function lastStepWrites({ stepNumber }: { stepNumber: number }): { activeTools: string[] } | undefined {
  if (stepNumber < DATABASE_TASK_STEPS - 1) return undefined;
  return { activeTools: [...FILE_OPERATION_TOOL_ORDER, 'add_migration'] };
}

/**
 * The AiAssistant on the Vercel AI SDK: any provider's language model (Anthropic, an
 * OpenAI-compatible endpoint, …). File changes come back as tool calls (write_file, edit_file,
 * …), read into FileOperations; the caller validates and applies them.
 */
export class AiSdkAssistant implements AiAssistant {
  readonly model: AiModelInfo;

  constructor(private readonly options: AiSdkAssistantOptions) {
    this.model = options.info;
  }

  private instructions(text: string): Instructions {
    return this.options.promptCaching ? { role: 'system', content: text, providerOptions: CACHE_EPHEMERAL } : text;
  }

  private settings() {
    return {
      model: this.options.model,
      maxRetries: this.options.maxRetries ?? 1,
      ...(this.options.maxOutputTokens !== undefined ? { maxOutputTokens: this.options.maxOutputTokens } : {}),
      ...(this.options.temperature !== undefined ? { temperature: this.options.temperature } : {}),
    };
  }

  async *runTask(input: TaskInput): AsyncIterable<AssistantEvent> {
    const { signal, release } = linkSignal(input.signal);
    try {
      if (signal.aborted) {
        yield { type: 'error', error: aiFailure('AI.ABORTED', 'The request was cancelled.') };
        return;
      }
      const database = databaseTools(input.database);
      const tools: ToolSet = { ...fileOperationTools(this.options.promptCaching === true), ...database };
      // sample_rows answers during the task: the model may take a few steps (look, then write).
      // Without it, one step, as before: the file tools have no execute and end the answer.
      const looks = 'sample_rows' in database;
      const result = streamText({
        ...this.settings(),
        instructions: this.instructions(TASK_SYSTEM_PROMPT),
        messages: [...toModelMessages(input.history), { role: 'user', content: userContent(taskMessage(input), input.attachments) }],
        tools,
        toolOrder: [...FILE_OPERATION_TOOL_ORDER, ...DATABASE_TOOL_ORDER],
        toolChoice: 'auto',
        ...(looks ? { stopWhen: isStepCount(DATABASE_TASK_STEPS), prepareStep: lastStepWrites } : {}),
        abortSignal: signal,
        // Errors arrive as 'error' parts of the stream; the SDK's default logging would repeat them.
        onError: () => undefined,
      });
      const rejected = new Set<string>();
      // Paths of the project and of this answer's migrations, so add_migration numbers the next one.
      const paths = [...input.tree];
      for await (const part of result.stream) {
        switch (part.type) {
          case 'text-delta':
            if (part.text !== '') yield { type: 'text', text: part.text };
            break;
          case 'tool-call': {
            // Executed by the SDK; its answer (or its input error) goes back to the model, not to the caller.
            if (part.toolName === 'sample_rows' && 'sample_rows' in database) {
              rejected.add(part.toolCallId);
              break;
            }
            if (part.invalid === true) {
              rejected.add(part.toolCallId);
              const message = part.error instanceof Error ? part.error.message : 'The tool call could not be read.';
              yield { type: 'rejected_operation', tool: part.toolName, error: { code: 'AI.OPERATION_REFUSED', reason: 'malformed', message } };
              break;
            }
            // add_migration is a write_file of the next numbered migration, validated like any other.
            const migration = part.toolName === 'add_migration' && 'add_migration' in database ? migrationWrite(part.input, paths) : undefined;
            if (migration === null) {
              yield { type: 'rejected_operation', tool: part.toolName, error: { code: 'AI.OPERATION_REFUSED', reason: 'malformed', message: 'add_migration needs a name in [a-z0-9_] and non-empty SQL.' } };
              break;
            }
            // Shape first, then values (paths inside the project, package names, sizes).
            const parsed = migration ? parseFileOperation('write_file', migration) : parseFileOperation(part.toolName, part.input);
            const operation = parsed.ok ? validateOperation(parsed.value) : parsed;
            if (operation.ok) {
              const { value } = operation;
              if (value.type === 'write_file') paths.push(value.path);
              else if (value.type === 'rename_file') paths.push(value.to);
              yield { type: 'operation', operation: value };
            } else yield { type: 'rejected_operation', tool: part.toolName, error: operation.error };
            break;
          }
          case 'tool-error':
            // An invalid call was already reported with its tool-call part; sample_rows' errors go to the model.
            if (!rejected.has(part.toolCallId)) {
              const message = part.error instanceof Error ? part.error.message : String(part.error);
              yield { type: 'rejected_operation', tool: part.toolName, error: { code: 'AI.OPERATION_REFUSED', reason: 'malformed', message } };
            }
            break;
          case 'finish':
            yield { type: 'usage', usage: usageOf(part.totalUsage) };
            yield { type: 'done', finishReason: part.finishReason === 'length' ? 'length' : part.finishReason === 'stop' || part.finishReason === 'tool-calls' ? 'stop' : 'other' };
            return;
          case 'abort':
            yield { type: 'error', error: aiFailure('AI.ABORTED', 'The request was cancelled.') };
            return;
          case 'error':
            yield { type: 'error', error: failureOf(part.error, signal) };
            return;
          default:
            break;
        }
      }
      yield { type: 'error', error: aiFailure('AI.PROVIDER_FAILED', 'The model stopped without finishing its answer.') };
    } catch (error) {
      yield { type: 'error', error: failureOf(error, signal) };
    } finally {
      release();
    }
  }

  async *plan(input: PlanInput): AsyncIterable<PlanEvent> {
    const { signal, release } = linkSignal(input.signal);
    try {
      const result = streamText({
        ...this.settings(),
        instructions: this.instructions(PLAN_SYSTEM_PROMPT),
        messages: [...toModelMessages(input.history), { role: 'user', content: userContent(planMessage(input), input.attachments) }],
        tools: planTool(this.options.promptCaching === true),
        toolChoice: { type: 'tool', toolName: 'submit_plan' },
        abortSignal: signal,
        onError: () => undefined,
      });
      let plan: AiPlan | null = null;
      for await (const part of result.stream) {
        if (part.type === 'text-delta' && part.text !== '') yield { type: 'text', text: part.text };
        else if (part.type === 'tool-call' && part.toolName === 'submit_plan' && part.invalid !== true) {
          const parsed = PLAN_SCHEMA.safeParse(part.input);
          if (!parsed.success) continue;
          const modules: PlannedModule[] = [];
          const tasks: PlannedTask[] = [];
          for (const [m, module] of parsed.data.modules.entries()) {
            const planned: PlannedModule = { id: `module-${m + 1}`, title: module.title, description: module.description };
            modules.push(planned);
            yield { type: 'module', module: planned };
            for (const task of module.tasks) {
              const next: PlannedTask = { id: `task-${tasks.length + 1}`, moduleId: planned.id, title: task.title, description: task.description };
              tasks.push(next);
              yield { type: 'task', task: next };
            }
          }
          plan = { kind: parsed.data.kind, modules, tasks };
        } else if (part.type === 'finish') {
          yield { type: 'usage', usage: usageOf(part.totalUsage) };
          if (plan) yield { type: 'done', plan };
          else yield { type: 'error', error: aiFailure('AI.PROVIDER_FAILED', 'The model did not return a plan.') };
          return;
        } else if (part.type === 'abort') {
          yield { type: 'error', error: aiFailure('AI.ABORTED', 'The request was cancelled.') };
          return;
        } else if (part.type === 'error') {
          yield { type: 'error', error: failureOf(part.error, signal) };
          return;
        }
      }
      yield { type: 'error', error: aiFailure('AI.PROVIDER_FAILED', 'The model stopped without finishing its plan.') };
    } catch (error) {
      yield { type: 'error', error: failureOf(error, signal) };
    } finally {
      release();
    }
  }

  async *complete(input: CompletionInput): AsyncIterable<CompletionEvent> {
    const { signal, release } = linkSignal(input.signal);
    try {
      if (signal.aborted) {
        yield { type: 'error', error: aiFailure('AI.ABORTED', 'The request was cancelled.') };
        return;
      }
      const json = input.responseFormat === 'json';
      const system = [input.system?.trim(), json ? JSON_ANSWER_INSTRUCTION : undefined].filter((p): p is string => p !== undefined && p !== '').join('\n\n');
      const result = streamText({
        ...this.settings(),
        ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
        ...(input.maxTokens !== undefined ? { maxOutputTokens: input.maxTokens } : {}),
        ...(system !== '' ? { instructions: this.instructions(system) } : {}),
        // Asks the provider for JSON where it can (OpenAI's response_format); the instruction does the rest.
        ...(json ? { output: Output.json() } : {}),
        messages: toModelMessages(input.messages),
        abortSignal: signal,
        onError: () => undefined,
      });
      for await (const part of result.stream) {
        switch (part.type) {
          case 'text-delta':
            if (part.text !== '') yield { type: 'text', text: part.text };
            break;
          case 'finish':
            yield { type: 'usage', usage: usageOf(part.totalUsage) };
            yield { type: 'done', finishReason: part.finishReason === 'length' ? 'length' : part.finishReason === 'stop' ? 'stop' : 'other' };
            return;
          case 'abort':
            yield { type: 'error', error: aiFailure('AI.ABORTED', 'The request was cancelled.') };
            return;
          case 'error':
            yield { type: 'error', error: failureOf(part.error, signal) };
            return;
          default:
            break;
        }
      }
      yield { type: 'error', error: aiFailure('AI.PROVIDER_FAILED', 'The model stopped without finishing its answer.') };
    } catch (error) {
      yield { type: 'error', error: failureOf(error, signal) };
    } finally {
      release();
    }
  }

  async summarize(messages: readonly AiMessage[], options: SummarizeOptions = {}): Promise<string> {
    const { signal, release } = linkSignal(options.signal);
    try {
      const ask = options.instruction ? `Summarize the conversation above. Keep especially: ${options.instruction}` : 'Summarize the conversation above.';
      const result = await generateText({
        ...this.settings(),
        instructions: this.instructions(SUMMARIZE_SYSTEM_PROMPT),
        messages: [...toModelMessages(messages), { role: 'user', content: ask }],
        abortSignal: signal,
      });
      return result.text.trim();
    } catch (error) {
      throw new AiCallFailed(failureOf(error, signal));
    } finally {
      release();
    }
  }

  async enhancePrompt(prompt: string, templateId?: string, abort?: AbortSignalLike): Promise<string> {
    const { signal, release } = linkSignal(abort);
    try {
      const result = await generateText({
        ...this.settings(),
        instructions: this.instructions(ENHANCE_SYSTEM_PROMPT),
        prompt: templateId ? `Template: ${templateId}\n\nRequest: ${prompt}` : `Request: ${prompt}`,
        abortSignal: signal,
      });
      return result.text.trim();
    } catch (error) {
      throw new AiCallFailed(failureOf(error, signal));
    } finally {
      release();
    }
  }
}

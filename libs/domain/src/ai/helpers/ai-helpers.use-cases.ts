import type { ProjectOwnership } from '../../projects/project-ownership.js';
import type { AssistantDatabaseSource } from '../context/assistant-database.port.js';
import type { ProjectNotFound } from '../../projects/project.errors.js';
import { isSandboxMissing } from '../../sandbox/sandbox-missing.js';
import type { AbortSignalLike } from '../../shared/abort-signal.js';
import type { DomainError } from '../../shared/domain-error.js';
import { type ProblemLog, problemText } from '../../shared/problem-log.port.js';
import { err, ok, type Result } from '../../shared/result.js';
import type { AiAssistant, AiFailure, AiMessage, AiPlan, PlannedModule, PlannedTask, ProjectFile } from '../ai-assistant.port.js';
import { drainAssistantStream, failureFromThrown, UNFINISHED_ANSWER, UNFINISHED_PLAN } from '../assistant-stream.js';
import { CONTEXT_RESERVE_CHARS, fitTree, TREE_SHARE } from '../context/turn-context.js';

/** A chat message as the helper routes take it: 'system' messages are instructions, not turns. */
export interface HelperMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/**
 * The conversation for the port, and its instructions joined (blank ones left out): `before`,
 * then the conversation's own 'system' messages, then `after`.
 */
export function conversationOf(
  messages: readonly HelperMessage[],
  instructions: { readonly before?: string | undefined; readonly after?: string | undefined } = {},
): { messages: AiMessage[]; system?: string } {
  const system = [instructions.before, ...messages.filter((m) => m.role === 'system').map((m) => m.content), instructions.after];
  const chat = messages.flatMap((m): AiMessage[] => (m.role === 'system' ? [] : [{ role: m.role, content: m.content }]));
  const text = system.filter((p): p is string => p !== undefined && p.trim() !== '').join('\n\n');
  return text === '' ? { messages: chat } : { messages: chat, system: text };
}

/** Runs a promise call of the assistant: its rejection is the AiFailure it carries. */
async function attempt<T>(work: () => Promise<T>): Promise<Result<T, AiFailure>> {
  try {
    return ok(await work());
  } catch (error) {
    return err(failureFromThrown(error));
  }
}

/**
 * Shapes an enhanced prompt around a template it knows (the template catalog does); null for an
 * id it does not know. Declared here so the templates room depends on this one, not the reverse.
 */
export interface TemplatePromptShaper {
  shapeEnhancedPrompt(enhanced: string, templateId: string): string | null;
}

/**
 * Rewrites a prompt into a clearer, more complete one (SPEC §7 enhance-prompt; free). With the
 * `template_id` of a template the shaper knows, the answer is shaped around it; any other
 * template id (a project's, a provider's own) is only passed on to the assistant.
 */
export class EnhancePrompt {
  constructor(
    private readonly assistant: AiAssistant,
    private readonly templates?: TemplatePromptShaper,
  ) {}

  async execute(prompt: string, templateId?: string, signal?: AbortSignalLike): Promise<Result<string, AiFailure>> {
    const enhanced = await attempt(() => this.assistant.enhancePrompt(prompt, templateId, signal));
    if (!enhanced.ok || templateId === undefined || this.templates === undefined) return enhanced;
    return ok(this.templates.shapeEnhancedPrompt(enhanced.value, templateId) ?? enhanced.value);
  }
}

export interface SummarizeRequest {
  readonly messages: readonly HelperMessage[];
  /** Standing instructions, before the conversation's own 'system' messages. */
  readonly system?: string;
  /** What to keep, after them. */
  readonly instruction?: string;
  readonly signal?: AbortSignalLike;
}

/** A shorter text carrying a conversation's substance (SPEC §7 summarize; free). */
export class SummarizeConversation {
  constructor(private readonly assistant: AiAssistant) {}

  execute(request: SummarizeRequest): Promise<Result<string, AiFailure>> {
    const { messages, system } = conversationOf(request.messages, { before: request.system, after: request.instruction });
    return attempt(() => this.assistant.summarize(messages, { ...(system === undefined ? {} : { instruction: system }), ...signalOf(request.signal) }));
  }
}

/** Another model than the configured one was named: refused rather than silently answered by it. */
export type OtherModelRefused = DomainError<'VALIDATION_FAILED'>;

export interface AskRequest {
  readonly messages: readonly HelperMessage[];
  readonly system?: string;
  /** The model the caller expects; left out, the configured one. */
  readonly model?: string;
  readonly temperature?: number;
  readonly responseFormat: 'text' | 'json';
  readonly signal?: AbortSignalLike;
}

/** An accepted question: its answer, read to the end (text arrives through `onText` as it is written). */
export interface ModelAnswer {
  readonly model: string;
  read(onText?: (text: string) => void): Promise<Result<string, AiFailure>>;
}

/** Asks the model freely (SPEC §7 query): no tools, no file operations. */
export class AskModel {
  constructor(private readonly assistant: AiAssistant) {}

  execute(request: AskRequest): Result<ModelAnswer, OtherModelRefused> {
    const model = this.assistant.model.id;
    if (request.model !== undefined && request.model !== model) {
      return err({ code: 'VALIDATION_FAILED', message: `model: must be the configured model (${model}) or left out` });
    }
    const { messages, system } = conversationOf(request.messages, { before: request.system });
    return ok({
      model,
      read: async (onText) => {
        let content = '';
        const events = this.assistant.complete({
          messages,
          ...(system === undefined ? {} : { system }),
          ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
          responseFormat: request.responseFormat,
          ...signalOf(request.signal),
        });
        const done = await drainAssistantStream(events, UNFINISHED_ANSWER, (event) => {
          if (event.type !== 'text') return;
          content += event.text;
          onText?.(event.text);
        });
        return done.ok ? ok(content) : done;
      },
    });
  }
}

/** What a plan preview gives the assistant: the project's listing and its relevant files within a budget. */
export interface PlanContextSource {
  contextFor(request: { readonly projectId: string; readonly prompt: string; readonly budgetChars: number }): Promise<{
    readonly tree: readonly string[];
    readonly files: readonly ProjectFile[];
  }>;
}

export interface PlanPreviewRequest {
  readonly userId: string;
  readonly projectId: string;
  readonly prompt: string;
  readonly signal?: AbortSignalLike;
}

/** The plan as it is decided: modules and tasks, in order. */
export type PlanStep = { readonly type: 'module'; readonly module: PlannedModule } | { readonly type: 'task'; readonly task: PlannedTask };

/** An accepted plan preview, read to the end (its steps through `onStep`). */
export interface PlanPreview {
  read(onStep: (step: PlanStep) => void): Promise<Result<AiPlan, AiFailure>>;
}

/**
 * Plans a prompt for one of the caller's projects without applying anything (SPEC §7
 * stream-modules, stream-tasks; free). The project's files come from its index when its sandbox
 * exists, within the AI context limit (the listing within its share, files in what is left); a
 * project without one is planned from the prompt alone.
 */
export class PreviewPlan {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly assistant: AiAssistant,
    private readonly context: PlanContextSource,
    private readonly contextLimitChars: number,
    private readonly problems: ProblemLog,
    /** The project's database for the assistant, as a turn tells it (optional). */
    private readonly database?: AssistantDatabaseSource,
  ) {}

  async execute(request: PlanPreviewRequest): Promise<Result<PlanPreview, ProjectNotFound>> {
    const found = await this.owned.find(request.userId, request.projectId);
    if (!found.ok) return found;
    return ok({
      read: async (onStep) => {
        const { tree, files } = await this.contextOf(request);
        const database = await this.database?.forProject(request.projectId).catch(() => null);
        const events = this.assistant.plan({ prompt: request.prompt, tree, files, history: [], ...(database ? { database } : {}), ...signalOf(request.signal) });
        const planned = await drainAssistantStream(events, UNFINISHED_PLAN, (event) => {
          if (event.type === 'module' || event.type === 'task') onStep(event);
        });
        return planned.ok ? ok(planned.value.plan) : planned;
      },
    });
  }

  private async contextOf(request: PlanPreviewRequest): Promise<{ tree: string[]; files: ProjectFile[] }> {
    const treeChars = Math.floor(this.contextLimitChars * TREE_SHARE);
    const budgetChars = Math.max(0, this.contextLimitChars - CONTEXT_RESERVE_CHARS - request.prompt.length - treeChars);
    try {
      const context = await this.context.contextFor({ projectId: request.projectId, prompt: request.prompt, budgetChars });
      return { tree: fitTree(context.tree, treeChars), files: [...context.files] };
    } catch (error) {
      if (!isSandboxMissing(error)) this.problems.warn(`Planning ${request.projectId} without its files: ${problemText(error)}`);
      return { tree: [], files: [] };
    }
  }
}

const signalOf = (signal: AbortSignalLike | undefined): { signal?: AbortSignalLike } => (signal === undefined ? {} : { signal });

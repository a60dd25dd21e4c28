import {
  aiFailure,
  applyOperations,
  validateOperation,
  type AbortSignalLike,
  type AiAssistant,
  type AiMessage,
  type AiModelInfo,
  type AiPlan,
  type AssistantEvent,
  type CompletionEvent,
  type CompletionInput,
  type FileOperation,
  type PlanEvent,
  type PlannedModule,
  type PlannedTask,
  type PlanInput,
  type SummarizeOptions,
  type TaskInput,
} from '@kiln/domain';
import { appContext, buildStages, filesAtStage, kindWords, type BuildStage } from './app-generator.js';
import type { EditIntent } from './edit-intent.js';
import { applyEdit, WorkingFiles } from './edits.js';
import { APP_KINDS, parseAppSpec, SECTION_LABELS } from './intent.js';
import { readRequest, seedOf, type OfflineRequest } from './offline-request.js';
import { operationsForFiles } from './operations.js';

export const OFFLINE_MODEL: AiModelInfo = Object.freeze({ provider: 'offline', id: 'kiln-offline-1', offline: true });

const TASK_PREFIX = 'offline:';
const STAGES: readonly BuildStage[] = ['layout', 'core', 'sections', 'theme'];

export interface OfflineAiAssistantOptions {
  /** Pause between streamed text chunks, for a lifelike preview (default 0: no pause). */
  readonly chunkDelayMs?: number;
}

const CAPABILITIES =
  'Offline, without an AI provider, I can build a new app (landing page, todo list, dashboard, blog, portfolio, calculator, contact or sign-up form, pricing page, notes, recipes, weather widget, kanban board, expense tracker, online store) and change the current one: rename it, change the heading, subtitle or a button, replace a quoted text, change colours, dark or light theme, font or corners, add or remove a section (FAQ, testimonials, pricing, team, contact, newsletter, gallery, …) and add a page. Configure an AI provider for anything else.';

/** What the offline assistant says it can build and change, for completions. */
export const OFFLINE_CAPABILITIES_ANSWER = [
  'I am Kiln’s offline assistant: I work without an AI provider, deterministically.',
  `I can build these kinds of apps: ${APP_KINDS.map(kindWords).join(', ')}.`,
  'In an app I built I can rename it; change the heading, the subtitle or a button; replace a quoted text; change the primary or background colour, dark or light theme, font and corners; add or remove a section (' +
    Object.values(SECTION_LABELS).join(', ') +
    '); and add a page.',
  'Describe the app you want, or the change, and I will plan and make it.',
].join('\n');

const LIMITED_CONVERSATION =
  'I am Kiln’s offline assistant and my conversation abilities are limited: I can only build the apps and make the changes I know (ask what I can build). Configure an AI provider for anything else.';

const ABOUT_ABILITIES = /\b(what|which)\b.*\b(can|could|do)\s+(you|i)\b.*\b(build|make|create|do|edit|change|support)\b|\b(capabilities|abilities|help)\b|\bwhat kinds?\b/i;
/** A question about the world (not a request for an app or a change). */
const GENERAL_QUESTION = /^\s*(what|why|how|who|whom|whose|when|where|is|are|was|were|does|do|did|explain|tell me|define)\b/i;

function describeIntent(intent: EditIntent): string {
  switch (intent.type) {
    case 'rename':
      return `rename the app to “${intent.name}”`;
    case 'heading':
      return `change the heading to “${intent.text}”`;
    case 'subtitle':
      return `change the subtitle to “${intent.text}”`;
    case 'button':
      return intent.from ? `change the “${intent.from}” button to “${intent.to}”` : `change the main button to “${intent.to}”`;
    case 'replace-text':
      return `replace “${intent.from}” with “${intent.to}”`;
    case 'theme':
      return [
        intent.primary ? `use ${intent.primary} as the primary colour` : null,
        intent.background ? `use ${intent.background} as the background` : null,
        intent.dark === true ? 'switch to a dark theme' : intent.dark === false ? 'switch to a light theme' : null,
        intent.font ? `use a ${intent.font} font` : null,
        intent.radius !== undefined ? `use ${intent.radius}px corners` : null,
      ]
        .filter(Boolean)
        .join(', ');
    case 'add-section':
      return `add a ${SECTION_LABELS[intent.section]} section`;
    case 'remove-section':
      return `remove the ${SECTION_LABELS[intent.section]} section`;
    case 'add-page':
      return `add a ${intent.name} page at #${intent.path}`;
  }
}

function sentenceCase(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function filesOf(input: { files: readonly { path: string; content: string }[] }): Map<string, string> {
  return new Map(input.files.map((f) => [f.path, f.content]));
}

function firstUserMessage(history: readonly AiMessage[], prompt: string): string {
  return history.find((m) => m.role === 'user')?.content ?? prompt;
}

/**
 * The assistant used when no AI provider is configured: deterministic, no network. It reads the
 * request into an app to build (one of fifteen kinds, with name, subject, sections and theme) or
 * into edits of the current files, and answers with file operations that build.
 */
export class OfflineAiAssistant implements AiAssistant {
  readonly model = OFFLINE_MODEL;

  constructor(private readonly options: OfflineAiAssistantOptions = {}) {}

  async *plan(input: PlanInput): AsyncIterable<PlanEvent> {
    if (input.signal?.aborted) {
      yield { type: 'error', error: aiFailure('AI.ABORTED', 'The request was cancelled.') };
      return;
    }
    const request = readRequest(input.prompt, filesOf(input));
    if (request.mode === 'unknown') {
      // Nothing it can do: declining the plan ends a turn before any credit is charged.
      yield { type: 'error', error: aiFailure('AI.DECLINED', `I’m not sure what to change. ${CAPABILITIES}`) };
      return;
    }
    const plan = this.planFor(request, input.prompt);
    for (const module of plan.modules) yield { type: 'module', module };
    for (const task of plan.tasks) yield { type: 'task', task };
    yield { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } };
    yield { type: 'done', plan };
  }

  private planFor(request: OfflineRequest, prompt: string): AiPlan {
    if (request.mode === 'build') {
      const app = appContext(request.spec, prompt);
      const module: PlannedModule = {
        id: `${TASK_PREFIX}module:app`,
        title: `Build ${request.spec.name}`,
        description: `A ${kindWords(request.spec.kind)} built with React, TypeScript and Vite.`,
      };
      const tasks: PlannedTask[] = buildStages(app).map((s) => ({ id: `${TASK_PREFIX}build:${s.stage}`, moduleId: module.id, title: s.title, description: s.description }));
      return { kind: 'build', modules: [module], tasks };
    }
    if (request.mode === 'edit') {
      const module: PlannedModule = { id: `${TASK_PREFIX}module:changes`, title: 'Change the app', description: prompt.trim() };
      const described = request.intents.map(describeIntent);
      const title = sentenceCase(described.length > 3 ? `${described.slice(0, 3).join(', ')} and more` : described.join(', '));
      return { kind: 'edit', modules: [module], tasks: [{ id: `${TASK_PREFIX}edit`, moduleId: module.id, title, description: prompt.trim() }] };
    }
    return { kind: 'edit', modules: [], tasks: [] };
  }

  async *runTask(input: TaskInput): AsyncIterable<AssistantEvent> {
    if (input.signal?.aborted) {
      yield { type: 'error', error: aiFailure('AI.ABORTED', 'The request was cancelled.') };
      return;
    }
    const current = filesOf(input);
    if (input.previousErrors && input.previousErrors.length > 0 && input.needFullFile === undefined) {
      const listed = input.previousErrors
        .slice(0, 3)
        .map((e) => `${e.file}:${e.line} ${e.message}`)
        .join('; ');
      yield* this.text(`The offline assistant cannot repair code errors by itself (${listed}). Configure an AI provider, or undo the last change from the history.`, input.signal);
      yield* this.finish();
      return;
    }

    const stage = this.stageOf(input.task);
    // A build task of our own plan stays a build, though earlier tasks made the project non-fresh.
    const request: OfflineRequest = stage ? { mode: 'build', spec: parseAppSpec(input.prompt, seedOf(input.prompt)) } : readRequest(input.prompt, current);
    let operations: FileOperation[] = [];
    let summary: string;

    if (request.mode === 'build') {
      const app = appContext(request.spec, input.prompt);
      const target = filesAtStage(app, stage ?? 'theme', current);
      yield* this.text(stage ? `${input.task?.title ?? 'Working'} for ${request.spec.name}…` : `Building ${request.spec.name}, a ${kindWords(request.spec.kind)}…`, input.signal);
      operations = operationsForFiles(current, target, input.needFullFile);
      summary = operations.length === 0 ? 'Everything for this step was already in place.' : `Wrote ${describeOperations(operations)}.`;
    } else if (request.mode === 'edit') {
      const working = new WorkingFiles(current);
      const outcomes = request.intents.map((intent) => applyEdit(working, intent, { originalRequest: firstUserMessage(input.history, input.prompt) }));
      operations = operationsForFiles(current, working.targets(), input.needFullFile);
      const notes = outcomes.map((o) => o.summary);
      if (request.unknown.length > 0) notes.push(`I did not understand: “${request.unknown.join('”, “')}”.`);
      yield* this.text(`Making ${request.intents.length === 1 ? 'the change' : `${request.intents.length} changes`}…`, input.signal);
      summary = notes.join(' ');
    } else {
      yield* this.text(`I’m not sure what to change. ${CAPABILITIES}`, input.signal);
      yield* this.finish();
      return;
    }

    operations = selfChecked(current, operations);
    for (const operation of operations) {
      if (input.signal?.aborted) {
        yield { type: 'error', error: aiFailure('AI.ABORTED', 'The request was cancelled.') };
        return;
      }
      yield { type: 'operation', operation };
    }
    yield* this.text(`\n\n${summary}`, input.signal);
    yield* this.finish();
  }

  private stageOf(task: PlannedTask | undefined): BuildStage | null {
    const stage = task?.id.startsWith(`${TASK_PREFIX}build:`) ? task.id.slice(`${TASK_PREFIX}build:`.length) : null;
    return stage !== null && (STAGES as readonly string[]).includes(stage) ? (stage as BuildStage) : null;
  }

  private async *finish(): AsyncIterable<AssistantEvent> {
    yield { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } };
    yield { type: 'done', finishReason: 'stop' };
  }

  /** Streams text a few words at a time, as a model would. */
  private async *text(text: string, signal: AbortSignalLike | undefined): AsyncIterable<{ type: 'text'; text: string }> {
    const pieces = text.match(/\S+\s*|\s+/g) ?? [text];
    for (let i = 0; i < pieces.length; i += 4) {
      if (signal?.aborted) return;
      if (this.options.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, this.options.chunkDelayMs));
      yield { type: 'text', text: pieces.slice(i, i + 4).join('') };
    }
  }

  /**
   * Answers from what it knows, without a model: its abilities when asked, the plan it would make
   * for a request to build or change an app, and otherwise that it cannot converse. Only the last
   * person's message is read; `temperature` and `maxTokens` do not apply. A json response format
   * answers `{"answer": "<the text>"}`.
   */
  async *complete(input: CompletionInput): AsyncIterable<CompletionEvent> {
    if (input.signal?.aborted) {
      yield { type: 'error', error: aiFailure('AI.ABORTED', 'The request was cancelled.') };
      return;
    }
    const answer = this.answer([...input.messages].reverse().find((m) => m.role === 'user')?.content ?? '');
    const text = input.responseFormat === 'json' ? JSON.stringify({ answer }) : answer;
    for await (const event of this.text(text, input.signal)) yield event;
    if (input.signal?.aborted) {
      yield { type: 'error', error: aiFailure('AI.ABORTED', 'The request was cancelled.') };
      return;
    }
    yield { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } };
    yield { type: 'done', finishReason: 'stop' };
  }

  private answer(question: string): string {
    if (question.trim() === '' || ABOUT_ABILITIES.test(question)) return OFFLINE_CAPABILITIES_ANSWER;
    // Reads the request as for an app that already exists, so that only a real request to build is a build.
    const request = GENERAL_QUESTION.test(question) ? null : readRequest(question, new Map([['src/site.ts', '']]));
    if (request?.mode === 'build') {
      const plan = this.planFor(request, question);
      return [
        `I would build ${request.spec.name}, a ${kindWords(request.spec.kind)}, in ${plan.tasks.length} steps:`,
        ...plan.tasks.map((t, i) => `${i + 1}. ${t.title}: ${t.description}`),
        'Send it as a prompt in the builder to make it.',
      ].join('\n');
    }
    if (request?.mode === 'edit') {
      const changes = request.intents.map(describeIntent);
      return [
        `In the current app I would ${changes.join('; ')}.`,
        request.unknown.length > 0 ? `I would not understand: “${request.unknown.join('”, “')}”.` : null,
        'Send it as a prompt in the builder to make the change.',
      ]
        .filter((line): line is string => line !== null)
        .join('\n');
    }
    return LIMITED_CONVERSATION;
  }

  async summarize(messages: readonly AiMessage[], options: SummarizeOptions = {}): Promise<string> {
    const firstSentence = (text: string, max: number) => {
      const sentence = text.trim().split(/(?<=[.!?])\s+/)[0] ?? '';
      return sentence.length > max ? `${sentence.slice(0, max - 1)}…` : sentence;
    };
    const asks = messages.filter((m) => m.role === 'user').map((m) => firstSentence(m.content, 140));
    const lastReply = [...messages].reverse().find((m) => m.role === 'assistant');
    const lines: string[] = [];
    if (options.instruction) lines.push(`Focus: ${options.instruction.trim()}`);
    if (asks.length > 0) lines.push(`First request: ${asks[0]}`);
    const later = asks.slice(1);
    if (later.length > 0) {
      const shown = later.slice(-8);
      lines.push(`Later requests${later.length > shown.length ? ` (last ${shown.length} of ${later.length})` : ''}:`, ...shown.map((a) => `- ${a}`));
    }
    if (lastReply) lines.push(`Last reply: ${firstSentence(lastReply.content, 200)}`);
    return lines.length > 0 ? lines.join('\n') : 'Nothing has been discussed yet.';
  }

  async enhancePrompt(prompt: string, templateId?: string): Promise<string> {
    const request = readRequest(prompt, new Map());
    const start = templateId ? `Start from the “${templateId}” template. ` : '';
    const quality = 'Make it responsive (375 px phones to 1280 px desktops) and accessible (labels, focus states, good contrast), and use specific, real copy instead of placeholder text.';
    if (request.mode === 'build') {
      const { spec } = request;
      const app = appContext(spec, prompt);
      const sections = [...new Set([...app.blueprint.coreSections, ...spec.sections])].map((s) => SECTION_LABELS[s]);
      const theme = [
        spec.theme.primary !== '#4f46e5' ? `${spec.theme.primary} as the primary colour` : null,
        spec.theme.dark ? 'a dark theme' : null,
        spec.theme.font !== 'sans' ? `a ${spec.theme.font} font` : null,
      ].filter(Boolean);
      return [
        `${start}Build a ${kindWords(spec.kind)} called “${spec.name}”${spec.subject ? ` for ${spec.subject}` : ''}.`,
        `Main feature: ${app.blueprint.coreTask.description}`,
        sections.length > 0 ? `Sections: ${sections.join(', ')}.` : null,
        theme.length > 0 ? `Use ${theme.join(' and ')}.` : null,
        quality,
      ]
        .filter(Boolean)
        .join(' ');
    }
    const edits = readRequest(prompt, new Map([['src/site.ts', '']]));
    if (edits.mode === 'edit') return `${start}In the current app, ${edits.intents.map(describeIntent).join('; ')}. Keep everything else as it is.`;
    return `${start}${prompt.trim()} Keep the rest of the app as it is. ${quality}`;
  }
}

function describeOperations(operations: readonly FileOperation[]): string {
  const writes = operations.filter((o) => o.type === 'write_file').length;
  const edits = operations.filter((o) => o.type === 'edit_file').length;
  const deletes = operations.filter((o) => o.type === 'delete_file').length;
  const parts = [writes ? `${writes} file${writes === 1 ? '' : 's'}` : null, edits ? `${edits} edit${edits === 1 ? '' : 's'}` : null, deletes ? `${deletes} deletion${deletes === 1 ? '' : 's'}` : null].filter(Boolean);
  return parts.join(', ') || 'nothing';
}

/**
 * The operations must be valid and apply to the files they were made from; if edits would not
 * (a bug), every touched file is sent whole instead.
 */
function selfChecked(current: ReadonlyMap<string, string>, operations: FileOperation[]): FileOperation[] {
  const valid = operations.every((o) => validateOperation(o).ok);
  const applied = valid ? applyOperations(current, operations) : null;
  if (applied?.ok) return operations;
  const target = new Map<string, string | undefined>();
  let files = new Map(current);
  for (const operation of operations) {
    const one = applyOperations(files, [operation]);
    if (!one.ok) continue;
    files = new Map(one.value.files);
  }
  for (const operation of operations) {
    const path = 'path' in operation ? operation.path : null;
    if (path !== null) target.set(path, files.get(path));
  }
  return operationsForFiles(current, target, undefined).map((o) => (o.type === 'edit_file' ? { type: 'write_file', path: o.path, content: files.get(o.path) ?? '' } : o));
}
